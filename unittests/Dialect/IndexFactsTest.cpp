//===- IndexFactsTest.cpp - Divisors and bounds of index values -----------===//
//
// Part of tile-mlir. The facts that let the GPU lowering drop bounds checks
// and use wide vector copies: each case names a value of the kernel below by
// a `name` attribute on its defining op and states what must (or must not)
// be proved about it.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/Utils/IndexFacts.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;

namespace {

// A 3x4 grid of 64-thread blocks: block indices below 3 and 4, the thread
// id below 64, a loop counter 0, 8, ..., 56 below 60. A block index at
// most 2, cut into a 64-row tile and a 32-row part of it
// (tile-split-accumulators' parts in blocks), in either order, and with a
// tile that is not two parts long.
constexpr const char *kKernel = R"mlir(
func.func @f() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %c40 = arith.constant 40 : index
  %c44 = arith.constant 44 : index
  %c60 = arith.constant 60 : index
  %c64 = arith.constant 64 : index
  %third = arith.constant 6148914691236517206 : index
  tile.kernel grid(%c3, %c4) threads(64) as (%bx, %by) {
    %row = arith.muli %by, %c32 {name = "row"} : index
    %wrapped = arith.muli %by, %third {name = "wrapping_product"} : index
    %wrapped_sum = arith.addi %wrapped, %third {name = "wrapping_sum"} : index
    %by2 = arith.minui %by, %c2 : index
    %tile = arith.divui %by2, %c2 : index
    %part = arith.remui %by2, %c2 : index
    %tile_row = arith.muli %tile, %c64 : index
    %part_row = arith.muli %c32, %part : index
    %split = arith.addi %tile_row, %part_row {name = "split_row"} : index
    %swapped = arith.addi %part_row, %tile_row {name = "split_row_swapped"} : index
    %tile_row40 = arith.muli %tile, %c40 : index
    %other = arith.addi %tile_row40, %part_row {name = "not_split_row"} : index
    %last = arith.subi %c3, %bx overflow<nuw> {name = "mirrored"} : index
    %wrapping = arith.subi %c3, %bx {name = "unflagged"} : index
    %below = arith.subi %c1, %bx {name = "one_less_block"} : index
    %shifted = arith.muli %last, %c32 {name = "mirrored_row"} : index
    %t = arith.addi %bx, %by {name = "sum"} : index
    %q = arith.divui %t, %c3 {name = "quotient"} : index
    %r = arith.remui %row, %c32 {name = "remainder"} : index
    %m = arith.minui %t, %c4 {name = "min"} : index
    %tid = gpu.thread_id x
    %wide = arith.constant 36893488147419103248 : i128
    %wide_index = arith.index_cast %wide {name = "wide_constant"} : i128 to index
    %far = arith.constant 36893488147419103233 : i128
    %by128 = arith.index_cast %by : index to i128
    %by_far = arith.shli %by128, %far : i128
    %far_index = arith.index_cast %by_far {name = "wide_shift"} : i128 to index
    %most_negative = arith.constant -9223372036854775808 : index
    %mn = arith.addi %most_negative, %c0 {name = "most_negative"} : index
    %lane = arith.addi %tid, %c1 {name = "lane_plus_one"} : index
    scf.for %k = %c8 to %c60 step %c8 {
      %ko = arith.muli %k, %c4 {name = "k_offset"} : index
      %odd = arith.addi %ko, %c1 {name = "k_offset_plus_one"} : index
      %kmin = arith.minui %k, %c40 {name = "k_min_40"} : index
      %kmin44 = arith.minui %k, %c44 {name = "k_min_44"} : index
      %past = arith.subi %ko, %c3 {name = "k_offset_less_3"} : index
      %before = arith.subi %ko, %c40 {name = "k_offset_less_40"} : index
      %m40 = arith.maxsi %before, %c4 : index
      %steps = arith.subi %m40, %c4 {name = "clamped_steps"} : index
    }
    scf.for %kz = %c0 to %c60 step %c8 {
      %kzo = arith.muli %kz, %c4 : index
      %early = arith.subi %kzo, %c3 {name = "k_lead"} : index
      %same = arith.subi %kzo, %c0 {name = "k_minus_zero"} : index
      %inside = arith.cmpi ult, %kzo, %c60 : index
      %picked = scf.if %inside -> (index) {
        scf.yield %kzo : index
      } else {
        scf.yield %row : index
      } {name = "picked"}
      %picked_early = scf.if %inside -> (index) {
        scf.yield %early : index
      } else {
        scf.yield %kzo : index
      } {name = "picked_lead"}
    }
    %clamped = arith.minui %wrapping, %c4 {name = "clamped_unflagged"} : index
    scf.for %tc = %bx to %c60 step %c4 {
      %trow = arith.muli %tc, %c32 {name = "tile_counter_row"} : index
      %unbounded = arith.subi %c1, %trow {name = "unbounded_difference"} : index
    }
  }
  return
}
)mlir";

// Sizes known only at run time: M x K rows and columns of A, a grid of
// ceildiv(K, 128) x ceildiv(M, 128) blocks (the second written as
// (M + 127) / 128), and the restricted block indices of the interior
// version of such a kernel (tile-specialize-interior-blocks), with and
// without the nuw flag that makes G - 2 exact there. A second kernel's
// grid has half as many rows per block as its tiles, and cuts its blocks'
// indices into 128-row tiles of two 64-row parts. In the K loop, the
// counter restricted as in the first part of a loop split by
// tile-specialize-interior-steps: by the last k-tiles inside A's columns
// and B's rows, and by that of A rounded down to a multiple of 3 (and,
// wrongly, stretched to a multiple of 4).
constexpr const char *kDynamicKernel = R"mlir(
func.func @f(%A: memref<?x?xf16>, %B: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %c127 = arith.constant 127 : index
  %c128 = arith.constant 128 : index
  %max = arith.constant 9223372036854775807 : index
  %M = memref.dim %A, %c0 : memref<?x?xf16>
  %K = memref.dim %A, %c1 : memref<?x?xf16>
  %gx = arith.ceildivui %K, %c128 : index
  %biased = arith.addi %M, %c127 : index
  %gy = arith.divui %biased, %c128 : index
  %kt = arith.ceildivui %K, %c32 : index
  tile.kernel grid(%gx, %gy) threads(128) as (%bx, %by) {
    %row = arith.muli %by, %c128 {name = "row"} : index
    %lasty = arith.subi %gy, %c2 overflow<nuw> : index
    %byi = arith.minui %by, %lasty : index
    %rowi = arith.muli %byi, %c128 {name = "interior_row"} : index
    %far = arith.addi %rowi, %max {name = "interior_row_past_max"} : index
    %lastx = arith.subi %gx, %c2 overflow<nuw> : index
    %bxi = arith.minui %bx, %lastx : index
    %coli = arith.muli %bxi, %c128 {name = "interior_col"} : index
    %wrapping = arith.subi %gy, %c2 : index
    %byw = arith.minui %by, %wrapping : index
    %roww = arith.muli %byw, %c128 {name = "unflagged_row"} : index
    %fy = arith.divui %M, %c128 : index
    %lastfy = arith.subi %fy, %c1 overflow<nuw> : index
    %byf = arith.minui %by, %lastfy : index
    %rowf = arith.muli %byf, %c128 {name = "floor_row"} : index
    %byfc = arith.minui %byf, %lasty : index
    %rowfc = arith.muli %byfc, %c128 {name = "floor_and_ceil_row"} : index
    %fy64 = arith.divui %M, %c64 : index
    %lastfy64 = arith.subi %fy64, %c1 overflow<nuw> : index
    %byf64 = arith.minui %by, %lastfy64 : index
    %rowf64 = arith.muli %byf64, %c128 {name = "floor_half_tile_row"} : index
    %KB = memref.dim %B, %c0 : memref<?x?xf16>
    %ktb = arith.ceildivui %KB, %c32 : index
    %lastk = arith.subi %kt, %c2 overflow<nuw> : index
    %lastkb = arith.subi %ktb, %c2 overflow<nuw> : index
    %lattice = arith.divui %lastk, %c3 : index
    %lastk3 = arith.muli %lattice, %c3 : index
    %lastk4 = arith.muli %lattice, %c4 : index
    scf.for %k = %c0 to %kt step %c1 {
      %ko = arith.muli %k, %c32 {name = "k_offset"} : index
      %ka = arith.minui %k, %lastk : index
      %kab = arith.minui %ka, %lastkb : index
      %kio = arith.muli %kab, %c32 {name = "interior_k_offset"} : index
      %k3 = arith.minui %k, %lastk3 : index
      %k3o = arith.muli %k3, %c32 {name = "lattice_k_offset"} : index
      %k4 = arith.minui %k, %lastk4 : index
      %k4o = arith.muli %k4, %c32 {name = "stretched_k_offset"} : index
    }
  }
  %g64 = arith.ceildivui %M, %c64 : index
  tile.kernel grid(%g64) threads(128) as (%b) {
    %last = arith.subi %g64, %c2 overflow<nuw> : index
    %bi = arith.minui %b, %last : index
    %rowh = arith.muli %bi, %c128 {name = "double_row"} : index
    %tile = arith.divui %bi, %c2 : index
    %part = arith.remui %bi, %c2 : index
    %tile_row = arith.muli %tile, %c128 : index
    %part_row = arith.muli %part, %c64 : index
    %rowp = arith.addi %tile_row, %part_row {name = "tile_and_part_row"} : index
  }
  %tiles = arith.ceildivui %M, %c128 : index
  %g4 = arith.muli %tiles, %c4 : index
  tile.kernel grid(%g4) threads(128) as (%p) {
    %tile_bound = arith.subi %g4, %c3 overflow<nuw> : index
    %last_tile = arith.subi %tile_bound, %c2 overflow<nuw> : index
    %pi = arith.minui %p, %last_tile : index
    %ti = arith.divui %pi, %c4 : index
    %tir = arith.muli %ti, %c128 {name = "tile_of_interior_part_row"} : index
    %last_part = arith.subi %g4, %c2 overflow<nuw> : index
    %pl = arith.minui %p, %last_part : index
    %tl = arith.divui %pl, %c4 : index
    %tlr = arith.muli %tl, %c128 {name = "tile_of_any_part_row"} : index
    %t3 = arith.divui %pi, %c3 : index
    %t3r = arith.muli %t3, %c128 {name = "tile_of_three_parts_row"} : index
    %full = arith.divui %M, %c128 : index
    %full4 = arith.muli %full, %c4 : index
    %last_full = arith.subi %full4, %c1 overflow<nuw> : index
    %pf = arith.minui %p, %last_full : index
    %tf = arith.divui %pf, %c4 : index
    %tfr = arith.muli %tf, %c128 {name = "tile_of_full_part_row"} : index
  }
  return
}
)mlir";

class IndexFacts : public ::testing::Test {
protected:
  explicit IndexFacts(const char *source = kKernel) {
    registry.insert<arith::ArithDialect, func::FuncDialect, gpu::GPUDialect,
                    memref::MemRefDialect, scf::SCFDialect,
                    mlir::tile::TileDialect>();
    context = std::make_unique<MLIRContext>(registry);
    module = parseSourceString<ModuleOp>(source, context.get());
  }

  /// The result of the op whose `name` attribute is `name`.
  Value named(StringRef name) {
    Value found;
    module->walk([&](Operation *op) {
      if (auto attr = op->getAttrOfType<StringAttr>("name"))
        if (attr.getValue() == name)
          found = op->getResult(0);
    });
    EXPECT_TRUE(found) << "no op named " << name.str();
    return found;
  }

  DialectRegistry registry;
  std::unique_ptr<MLIRContext> context;
  OwningOpRef<ModuleOp> module;
};

TEST_F(IndexFacts, Parses) { ASSERT_TRUE(module); }

TEST_F(IndexFacts, UpperBounds) {
  ASSERT_TRUE(module);
  EXPECT_EQ(mlir::tile::getConstantUpperBound(named("row")), 96);
  EXPECT_EQ(mlir::tile::getConstantUpperBound(named("sum")), 5);
  EXPECT_EQ(mlir::tile::getConstantUpperBound(named("quotient")), 1);
  EXPECT_EQ(mlir::tile::getConstantUpperBound(named("remainder")), 31);
  EXPECT_EQ(mlir::tile::getConstantUpperBound(named("min")), 4);
  EXPECT_EQ(mlir::tile::getConstantUpperBound(named("lane_plus_one")), 64);
  // 56 * 4: the last counter below 60 is 56, not 59.
  EXPECT_EQ(mlir::tile::getConstantUpperBound(named("k_offset")), 224);
}

// (b / 2) * 64 + (b % 2) * 32 is b * 32: 64 for b <= 2, where the tile and
// the part bounded apart would give 64 + 32. A tile of 40 rows is not two
// parts of 32: there the terms are bounded apart.
TEST_F(IndexFacts, TileAndPart) {
  ASSERT_TRUE(module);
  EXPECT_EQ(mlir::tile::getConstantUpperBound(named("split_row")), 64);
  EXPECT_EQ(mlir::tile::getConstantUpperBound(named("split_row_swapped")), 64);
  EXPECT_EQ(mlir::tile::getConstantUpperBound(named("not_split_row")), 72);
  EXPECT_EQ(mlir::tile::getKnownDivisor(named("split_row")), 32);
}

// 3 * 6148914691236517206 wraps to 2 in 64 bits: no bound for by * that
// (by <= 3), nor for a sum over it.
TEST_F(IndexFacts, NoBoundThroughOverflow) {
  ASSERT_TRUE(module);
  EXPECT_EQ(mlir::tile::getConstantUpperBound(named("wrapping_product")),
            std::nullopt);
  EXPECT_EQ(mlir::tile::getConstantUpperBound(named("wrapping_sum")),
            std::nullopt);
  EXPECT_EQ(mlir::tile::getConstantLowerBound(named("wrapping_product")),
            std::nullopt);
}

// A difference marked nuw is at most its minuend; without the flag it may
// wrap to a huge value, and nothing is claimed (BlockOrder.h's mirror).
TEST_F(IndexFacts, SubtractionBoundOnlyWithoutWrap) {
  ASSERT_TRUE(module);
  EXPECT_EQ(mlir::tile::getConstantUpperBound(named("mirrored")), 3);
  EXPECT_EQ(mlir::tile::getConstantUpperBound(named("mirrored_row")), 96);
  EXPECT_EQ(mlir::tile::getConstantUpperBound(named("unflagged")),
            std::nullopt);
}

TEST_F(IndexFacts, Divisors) {
  ASSERT_TRUE(module);
  EXPECT_EQ(mlir::tile::getKnownDivisor(named("row")), 32);
  EXPECT_EQ(mlir::tile::getKnownDivisor(named("mirrored_row")), 32);
  EXPECT_EQ(mlir::tile::getKnownDivisor(named("k_offset")), 32);
  EXPECT_EQ(mlir::tile::getKnownDivisor(named("k_offset_plus_one")), 1);
  EXPECT_EQ(mlir::tile::getKnownDivisor(named("sum")), 1);
  // A minimum is one of its operands: the divisors they share.
  EXPECT_EQ(mlir::tile::getKnownDivisor(named("k_min_40")), 8);
  EXPECT_EQ(mlir::tile::getKnownDivisor(named("k_min_44")), 4);
}

// Constants of any width: 2^65 + 16 as an i128 (index_cast keeps its low
// bits, 16), a shift by more than 64 bits, and -2^63, whose magnitude does
// not fit in int64_t. These aborted on APInt's 64-bit accessors.
TEST_F(IndexFacts, WideConstantDivisors) {
  ASSERT_TRUE(module);
  EXPECT_EQ(mlir::tile::getKnownDivisor(named("wide_constant")), 16);
  EXPECT_EQ(mlir::tile::getKnownDivisor(named("wide_shift")), 1);
  EXPECT_EQ(mlir::tile::getKnownDivisor(named("most_negative")), int64_t(1)
                                                                     << 30);
}

// Offsets chosen in a branch have the divisors both branches share.
TEST_F(IndexFacts, BranchDivisors) {
  ASSERT_TRUE(module);
  EXPECT_EQ(mlir::tile::getKnownDivisor(named("picked")), 32);
  EXPECT_EQ(mlir::tile::getKnownDivisor(named("picked_lead")), 1);
  EXPECT_EQ(mlir::tile::getKnownDivisor(named("k_lead")), 1);
}

// Non-negative: a counter from a block index, which has no upper bound (the
// tile loop of tile-persistent-blocks); 3 - bx, as bx < 3; an unsigned
// minimum with 4; k * 4 - 3 where k runs from 8 (a loop's last steps, which
// tile-specialize-interior-steps splits off without nuw); max(x, 4) - 4.
// Not: a tile started before the tensor (k * 4 - 3 from k = 0), a branch
// that may yield one, 1 - bx, and k * 4 - 40 from k = 8.
TEST_F(IndexFacts, NonNegative) {
  ASSERT_TRUE(module);
  for (StringRef name :
       {"row", "k_offset", "k_minus_zero", "picked", "sum", "quotient",
        "remainder", "min", "lane_plus_one", "mirrored", "mirrored_row",
        "clamped_unflagged", "unflagged", "tile_counter_row", "k_offset_less_3",
        "clamped_steps"})
    EXPECT_TRUE(mlir::tile::provablyNonNegative(named(name))) << name.str();
  for (StringRef name :
       {"k_lead", "picked_lead", "one_less_block", "k_offset_less_40"})
    EXPECT_FALSE(mlir::tile::provablyNonNegative(named(name))) << name.str();
  EXPECT_EQ(mlir::tile::getConstantUpperBound(named("tile_counter_row")),
            std::nullopt);
}

// The lower bounds behind NonNegative, and those below zero: a block row
// from 0, a loop counter from 8 times 4, less 3 or 40 (a lead), a thread id
// plus one, 3 - bx and 1 - bx with bx < 3 (signed values: the second is
// negative for bx = 2, not a wrapped unsigned one), and nothing for a
// difference with an unbounded right side.
TEST_F(IndexFacts, LowerBounds) {
  ASSERT_TRUE(module);
  auto low = [&](StringRef name) {
    return mlir::tile::getConstantLowerBound(named(name));
  };
  EXPECT_EQ(low("row"), 0);
  EXPECT_EQ(low("k_offset"), 32);
  EXPECT_EQ(low("k_offset_less_3"), 29);
  EXPECT_EQ(low("k_offset_less_40"), -8);
  EXPECT_EQ(low("k_lead"), -3);
  EXPECT_EQ(low("lane_plus_one"), 1);
  EXPECT_EQ(low("unflagged"), 1);
  EXPECT_EQ(low("one_less_block"), -1);
  EXPECT_EQ(low("unbounded_difference"), std::nullopt);
}

class DynamicIndexFacts : public IndexFacts {
protected:
  DynamicIndexFacts() : IndexFacts(kDynamicKernel) {}

  /// The `index`th argument of the function, a memref<?x?xf16>.
  Value argument(unsigned index) {
    return module->getBody()->front().getRegion(0).getArgument(index);
  }
};

TEST_F(DynamicIndexFacts, Parses) { ASSERT_TRUE(module); }

// Block by <= ceildiv(M, 128) - 2 starts its tile at row
// 128 * ceildiv(M, 128) - 256 at most, and M >= 128 * ceildiv(M, 128) - 127:
// 129 rows fit below M, 130 need not.
TEST_F(DynamicIndexFacts, InteriorTilesFit) {
  ASSERT_TRUE(module);
  Value a = argument(0);
  EXPECT_TRUE(mlir::tile::provablyFitsIn(named("interior_row"), 128, a, 0));
  EXPECT_TRUE(mlir::tile::provablyFitsIn(named("interior_row"), 129, a, 0));
  EXPECT_FALSE(mlir::tile::provablyFitsIn(named("interior_row"), 130, a, 0));
  EXPECT_TRUE(mlir::tile::provablyFitsIn(named("interior_col"), 128, a, 1));
}

// The last block's tile can leave; a bound in another size, in another
// tensor's size, or from a grid with fewer rows per block than the tile
// proves nothing; a subtraction that may wrap is not exact.
TEST_F(DynamicIndexFacts, NothingClaimedOtherwise) {
  ASSERT_TRUE(module);
  Value a = argument(0), b = argument(1);
  EXPECT_FALSE(mlir::tile::provablyFitsIn(named("row"), 128, a, 0));
  EXPECT_FALSE(mlir::tile::provablyFitsIn(named("interior_row"), 128, a, 1));
  EXPECT_FALSE(mlir::tile::provablyFitsIn(named("interior_col"), 128, a, 0));
  EXPECT_FALSE(mlir::tile::provablyFitsIn(named("interior_row"), 128, b, 0));
  EXPECT_FALSE(mlir::tile::provablyFitsIn(named("double_row"), 128, a, 0));
  EXPECT_FALSE(mlir::tile::provablyFitsIn(named("unflagged_row"), 128, a, 0));
  // Its form's constant would wrap to below zero.
  EXPECT_FALSE(
      mlir::tile::provablyFitsIn(named("interior_row_past_max"), 64, a, 0));
}

// b <= ceildiv(M, 64) - 2, cut into a tile b / 2 of 128 rows and a part
// b % 2 of 64, starts at row 64 * b <= 64 * ceildiv(M, 64) - 128, and
// M >= 64 * ceildiv(M, 64) - 63: 65 rows fit below M, 66 need not.
TEST_F(DynamicIndexFacts, TileAndPartFit) {
  ASSERT_TRUE(module);
  Value a = argument(0);
  EXPECT_TRUE(mlir::tile::provablyFitsIn(named("tile_and_part_row"), 64, a, 0));
  EXPECT_TRUE(mlir::tile::provablyFitsIn(named("tile_and_part_row"), 65, a, 0));
  EXPECT_FALSE(
      mlir::tile::provablyFitsIn(named("tile_and_part_row"), 66, a, 0));
}

// A grid of ceildiv(M, 128) * 4 blocks, block p computing a part of tile
// p / 4. Below its last tile's blocks (p <= 4 * ceildiv(M, 128) - 5), tile
// p / 4 <= ceildiv(M, 128) - 2 starts at row 128 * ceildiv(M, 128) - 256 at
// most: 129 rows fit below M, 130 need not (as interior_row). Below the
// grid's last block alone the tile can be the last one, and a division by 3
// of a bound over 4 * ceildiv(M, 128) says nothing.
TEST_F(DynamicIndexFacts, TilesOfParts) {
  ASSERT_TRUE(module);
  Value a = argument(0);
  EXPECT_TRUE(mlir::tile::provablyFitsIn(named("tile_of_interior_part_row"),
                                         129, a, 0));
  EXPECT_FALSE(mlir::tile::provablyFitsIn(named("tile_of_interior_part_row"),
                                          130, a, 0));
  EXPECT_FALSE(
      mlir::tile::provablyFitsIn(named("tile_of_any_part_row"), 128, a, 0));
  EXPECT_FALSE(
      mlir::tile::provablyFitsIn(named("tile_of_three_parts_row"), 1, a, 0));
}

// Block by <= floor(M / 128) - 1 starts its tile at row
// 128 * floor(M / 128) - 128 <= M - 128 at most: 128 rows fit below M, 129
// need not (at M = 256). Below both floor(M / 128) - 1 and
// ceildiv(M, 128) - 2, the second is the smaller (ceildiv(M, 128) <=
// floor(M / 128) + 1), and 129 rows fit as for interior_row. A bound of
// floor(M / 64) - 1 on a block of 128 rows proves no more than the grid
// (its tile starts inside M).
TEST_F(DynamicIndexFacts, FloorBounds) {
  ASSERT_TRUE(module);
  Value a = argument(0);
  EXPECT_TRUE(mlir::tile::provablyFitsIn(named("floor_row"), 128, a, 0));
  EXPECT_FALSE(mlir::tile::provablyFitsIn(named("floor_row"), 129, a, 0));
  EXPECT_FALSE(mlir::tile::provablyFitsIn(named("floor_row"), 128, a, 1));
  EXPECT_TRUE(
      mlir::tile::provablyFitsIn(named("floor_and_ceil_row"), 129, a, 0));
  EXPECT_FALSE(
      mlir::tile::provablyFitsIn(named("floor_and_ceil_row"), 130, a, 0));
  EXPECT_TRUE(
      mlir::tile::provablyFitsIn(named("floor_half_tile_row"), 1, a, 0));
  EXPECT_FALSE(
      mlir::tile::provablyFitsIn(named("floor_half_tile_row"), 2, a, 0));
  // p <= 4 * floor(M / 128) - 1: tile p / 4 <= floor(M / 128) - 1.
  EXPECT_TRUE(
      mlir::tile::provablyFitsIn(named("tile_of_full_part_row"), 128, a, 0));
  EXPECT_FALSE(
      mlir::tile::provablyFitsIn(named("tile_of_full_part_row"), 129, a, 0));
}

// The loop counter k < ceildiv(K, 32): the last k-tile starts inside K but
// may end past it.
TEST_F(DynamicIndexFacts, LoopCounters) {
  ASSERT_TRUE(module);
  Value a = argument(0);
  EXPECT_TRUE(mlir::tile::provablyFitsIn(named("k_offset"), 1, a, 1));
  EXPECT_FALSE(mlir::tile::provablyFitsIn(named("k_offset"), 2, a, 1));
}

// min(k, ceildiv(K_A, 32) - 2, ceildiv(K_B, 32) - 2) * 32 is at most
// 32 * ceildiv(K, 32) - 64 for K the columns of A and for K the rows of B:
// the minimum is below both bounds, and each query takes the one over its
// own size. 32 * (ceildiv(K, 32) - 2) + 33 <= K, 34 need not be.
TEST_F(DynamicIndexFacts, RestrictedCountersFit) {
  ASSERT_TRUE(module);
  Value a = argument(0), b = argument(1);
  EXPECT_TRUE(mlir::tile::provablyFitsIn(named("interior_k_offset"), 32, a, 1));
  EXPECT_TRUE(mlir::tile::provablyFitsIn(named("interior_k_offset"), 32, b, 0));
  EXPECT_TRUE(mlir::tile::provablyFitsIn(named("interior_k_offset"), 33, b, 0));
  EXPECT_FALSE(
      mlir::tile::provablyFitsIn(named("interior_k_offset"), 34, b, 0));
  EXPECT_FALSE(
      mlir::tile::provablyFitsIn(named("interior_k_offset"), 32, a, 0));
  EXPECT_FALSE(
      mlir::tile::provablyFitsIn(named("interior_k_offset"), 32, b, 1));
  // (x / 3) * 3 <= x; (x / 3) * 4 need not be.
  EXPECT_TRUE(mlir::tile::provablyFitsIn(named("lattice_k_offset"), 32, a, 1));
  EXPECT_FALSE(
      mlir::tile::provablyFitsIn(named("stretched_k_offset"), 32, a, 1));
}

} // namespace
