// Diagnostics for lint_diagnostics.py: which ones a test provokes.

void tested(Operation *op) {
  op->emitOpError("needs a shared tile; got ") << op->getName();
}

void testedAcrossLines(Location loc, int64_t stages) {
  emitError(loc) << "kernel @" << name << " needs more shared memory than "
                 << "the chip allows; the largest depth that fits is "
                 << stages;
}

void untestedError(Location loc) {
  emitError(loc, "the pipeline has; no " "such stage");
}

void checkedButNotVerified(Operation *op) {
  op->emitWarning("a FileCheck line is not a diagnostic test");
}

void apiOnly(Location loc) {
  emitError(loc, "block size must be a constant");
}

LogicalResult reason(std::string &why) {
  why = "its destination is not a whole 2-D tile";
  return failure();
}

LogicalResult untestedReason(std::string &why) {
  why = "it writes at an offset into its shared tile";
  return failure();
}

void internal(Location loc) {
  // untested: no input reaches it.
  emitError(loc, "internal pipeline does not parse");
}

void builtFromVariables(Operation *op, StringRef what) {
  op->emitRemark(what) << "'" << op->getName() << "'";
}

void sameBeginning(Operation *op, bool clear) {
  if (clear)
    op->emitOpError("the unsupported memory space of a clear's tile");
  else
    op->emitOpError("the unsupported memory space of a copy's destination");
}
