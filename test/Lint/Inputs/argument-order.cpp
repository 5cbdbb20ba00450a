// Input of argument-order.test: calls that the lint flags and calls it
// leaves alone.

Value flagged(OpBuilder &b, Location loc, Value x) {
  // Two arguments create ops.
  return arith::AddIOp::create(b, loc, arith::MulIOp::create(b, loc, x, x),
                               arith::ConstantIndexOp::create(b, loc, 1));
}

Value flaggedFold(OpBuilder &builder, Location loc, Value x) {
  // createOrFold and a helper that takes the builder.
  return builder.createOrFold<arith::MulIOp>(
      loc, builder.createOrFold<arith::RemUIOp>(loc, x, x),
      constantIndex(builder, loc, 8));
}

Value flaggedLambda(OpBuilder &b, Location loc, Value x) {
  auto constant = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  // Two calls of a lambda that builds.
  return arith::SubIOp::create(b, loc, constant(4), constant(2));
}

Value fine(OpBuilder &b, Location loc, Value x) {
  auto constant = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  // One building argument each; a braced list is evaluated in order; a
  // callback runs inside the call; "create(" in a string or a comment
  // (arith::AddIOp::create(b, loc, f(b), g(b))) is text.
  Value product = arith::MulIOp::create(b, loc, x, constant(4));
  Value sum = arith::AddIOp::create(b, loc, product, constant(1));
  Value joined = vector::FromElementsOp::create(
      b, loc, type, ValueRange{constant(1), constant(2)});
  scf::IfOp::create(b, loc, sum, [&](OpBuilder &inner, Location l) {
    scf::YieldOp::create(inner, l);
  });
  emitWarning(loc, "create(b, loc, create(b), create(b))");
  return joined;
}
