// The service worker's source (issue #25): built to /sw.js; see ADR.
