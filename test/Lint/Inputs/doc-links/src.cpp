// Fine: docs/notes.md, "Clocks and cycles"; docs/notes.md, "Measured".
// Broken across comment lines (docs/notes.md, "Split
// barriers") is fine too.
// Stale: docs/notes.md, "Where the time goes".
// Missing: docs/gone.md, "Anything".
