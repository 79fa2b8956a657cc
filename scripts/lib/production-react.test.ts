import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { carriesDevelopmentReact, checkProductionReact, devBundleDirs } from "./production-react";

const react = (file: string) => readFileSync(path.join("node_modules", file), "utf8");

describe("which React a worker bundle carries", () => {
  it("tells React's development builds from its production builds, by their contents alone", () => {
    for (const file of [
      "react/cjs/react.development.js",
      "react/cjs/react-jsx-runtime.development.js",
      "react-dom/cjs/react-dom-server.browser.development.js",
    ]) {
      expect(carriesDevelopmentReact(react(file)), file).toBe(true);
    }
    for (const file of [
      "react/cjs/react.production.min.js",
      "react/cjs/react-jsx-runtime.production.min.js",
      "react-dom/cjs/react-dom-server.browser.production.min.js",
    ]) {
      expect(carriesDevelopmentReact(react(file)), file).toBe(false);
    }
  });
});

describe("the start's check of what wrangler bundled", () => {
  let root: string;
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const bundle = (dir: string, name: string, source: string) => {
    mkdirSync(path.join(root, ".wrangler", "tmp", dir), { recursive: true });
    writeFileSync(path.join(root, ".wrangler", "tmp", dir, name), source);
  };

  it("refuses a run whose new bundle carries the development build, and reads only bundles written since the start", () => {
    root = mkdtempSync(path.join(os.tmpdir(), "production-react-"));
    bundle("dev-old", "app.js", react("react/cjs/react.development.js"));
    const before = devBundleDirs(root);
    bundle("dev-new", "app.js", react("react/cjs/react.production.min.js"));
    bundle("bundle-x", "middleware.js", "");
    expect(() => checkProductionReact(root, before)).not.toThrow();

    bundle(
      "dev-jobs",
      "jobs.js",
      `// node_modules/react/cjs/react.development.js\n${react("react/cjs/react.development.js")}`,
    );
    expect(() => checkProductionReact(root, before)).toThrow(/development build .*dev-jobs\/jobs\.js/);
  });

  it("refuses a run where wrangler wrote no bundle it can read, rather than pass without looking", () => {
    root = mkdtempSync(path.join(os.tmpdir(), "production-react-"));
    expect(() => checkProductionReact(root, devBundleDirs(root))).toThrow(/wrote no bundle/);
  });
});
