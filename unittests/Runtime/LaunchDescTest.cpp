//===- LaunchDescTest.cpp - Unit tests for the launch-description parser --===//
//
// Part of tile-mlir. Needs no GPU and no CUDA driver.
//
//===----------------------------------------------------------------------===//

#include "tile/Runtime/LaunchDesc.h"

#include "gtest/gtest.h"

using namespace tile::runtime;

namespace {

std::optional<LaunchDesc> parse(const std::string &text, std::string &error) {
  error.clear();
  return parseLaunchDesc(text, error);
}

TEST(LaunchDesc, ParsesTheCompilersFormat) {
  std::string error;
  std::optional<LaunchDesc> desc = parse(R"(# written by tile-opt
kernel matmul_auto_kernel
chip sm_90
grid 32 32 1
block 128 1 1
shared_bytes 49152   # 3 stages
arg A f16 4096x4096
arg B bf16 4096x2048
arg C f32 4096x2048
grid_expr ceildiv(N,128) ceildiv(M,128) 1
gemm_transpose 0 1
cluster 2 1 1
)",
                                         error);
  ASSERT_TRUE(desc) << error;
  EXPECT_EQ(desc->kernel, "matmul_auto_kernel");
  EXPECT_EQ(desc->chip, "sm_90");
  EXPECT_EQ(desc->grid, (std::array<unsigned, 3>{32, 32, 1}));
  EXPECT_EQ(desc->block, (std::array<unsigned, 3>{128, 1, 1}));
  EXPECT_EQ(desc->sharedBytes, 49152u);
  EXPECT_EQ(desc->cluster, (std::array<unsigned, 3>{2, 1, 1}));
  ASSERT_EQ(desc->args.size(), 3u);
  EXPECT_EQ(desc->args[1].name, "B");
  EXPECT_EQ(desc->args[1].type, ElemType::BF16);
  EXPECT_EQ(desc->args[1].shape, (std::vector<int64_t>{4096, 2048}));
  EXPECT_EQ(desc->args[2].numBytes(), int64_t(4096) * 2048 * 4);
  EXPECT_EQ(desc->args[0].str(), "f16 4096x4096");
  EXPECT_EQ(desc->gridExpr, "ceildiv(N,128) ceildiv(M,128) 1");
  EXPECT_FALSE(desc->transposeA);
  EXPECT_TRUE(desc->transposeB);
  EXPECT_TRUE(desc->warnings.empty());
}

TEST(LaunchDesc, DefaultsAndUnknownKeys) {
  std::string error;
  std::optional<LaunchDesc> desc =
      parse("kernel k\ngrid 8\nblock 64 2\nregisters 128\n", error);
  ASSERT_TRUE(desc) << error;
  EXPECT_EQ(desc->grid, (std::array<unsigned, 3>{8, 1, 1}));
  EXPECT_EQ(desc->block, (std::array<unsigned, 3>{64, 2, 1}));
  EXPECT_EQ(desc->sharedBytes, 0u);
  EXPECT_FALSE(desc->transposeA);
  EXPECT_FALSE(desc->transposeB);
  EXPECT_EQ(desc->cluster, (std::array<unsigned, 3>{1, 1, 1}));
  ASSERT_EQ(desc->warnings.size(), 1u);
  EXPECT_EQ(desc->warnings[0], "line 4: unknown key 'registers' ignored");
}

TEST(LaunchDesc, ParsesTensorMapsAfterTheArgs) {
  std::string error;
  // A tensormap line may come before the arg it names.
  std::optional<LaunchDesc> desc = parse(R"(kernel k
grid 3 4 1
block 256
tensormap B 32x64 swizzle 128
arg A f16 200x72
arg B bf16 72x136
arg C f32 200x136
tensormap A 64x32 swizzle none
tensormap C 16x8 swizzle 32
)",
                                         error);
  ASSERT_TRUE(desc) << error;
  ASSERT_EQ(desc->tensorMaps.size(), 3u);
  EXPECT_EQ(desc->numParams(), 6u);
  const TensorMapDesc &b = desc->tensorMaps[0];
  EXPECT_EQ(b.argName, "B");
  EXPECT_EQ(b.argIndex, 1u);
  EXPECT_EQ(b.boxRows, 32u);
  EXPECT_EQ(b.boxCols, 64u);
  EXPECT_EQ(b.swizzleBytes, 128u);
  EXPECT_EQ(b.line, 4u);
  EXPECT_EQ(desc->tensorMaps[1].argIndex, 0u);
  EXPECT_EQ(desc->tensorMaps[1].swizzleBytes, 0u);
  EXPECT_EQ(desc->tensorMaps[1].str(), "A 64x32 swizzle none");
  EXPECT_EQ(desc->tensorMaps[2].argIndex, 2u);
  EXPECT_EQ(desc->tensorMaps[2].str(), "C 16x8 swizzle 32");
  EXPECT_TRUE(desc->warnings.empty());

  desc = parse("kernel k\ngrid 1\nblock 1\narg A f16 8x8\n", error);
  ASSERT_TRUE(desc) << error;
  EXPECT_TRUE(desc->tensorMaps.empty());
  EXPECT_EQ(desc->numParams(), 1u);
}

struct BadCase {
  const char *text;
  const char *error;
};

TEST(LaunchDesc, RejectsBadFilesWithTheLineAndCause) {
  const BadCase cases[] = {
      {"grid 1\nblock 1\n", "missing required 'kernel <entry name>' line"},
      {"kernel k\nblock 1\n", "missing required 'grid' line"},
      {"kernel k\ngrid 1\n", "missing required 'block' line"},
      {"kernel\n", "line 1: expected 'kernel <entry name>'"},
      {"kernel a\nkernel b\n",
       "line 2: a second 'kernel' line: the description holds more than one "
       "kernel, and tile-run runs one (compile a module with a single "
       "tile.kernel)"},
      {"kernel k\ngrid 0 1 1\n",
       "line 2: 'grid' extent '0' is not a positive integer"},
      {"kernel k\ngrid 1 1 1 1\n", "line 2: expected 'grid <x> [<y> [<z>]]'"},
      {"kernel k\ngrid 32 -1 1\n",
       "line 2: 'grid' extent -1: write '?' for an extent known only at run "
       "time (computed from grid_expr)"},
      {"kernel k\nblock ? 1 1\n",
       "line 2: 'block' extent '?' is not a positive integer"},
      {"kernel k\nblock -4\n",
       "line 2: 'block' extent '-4' is not a positive integer"},
      {"kernel k\ngrid 4294967296\n",
       "line 2: 'grid' extent 4294967296 in x is above CUDA's limit of "
       "2147483647"},
      // Numbers too large for any field are out of range, not malformed.
      {"kernel k\ngrid 99999999999999999999\n",
       "line 2: 'grid' extent 99999999999999999999 in x is above CUDA's limit "
       "of 2147483647"},
      {"kernel k\nshared_bytes 4294967296\n",
       "line 2: 'shared_bytes' value 4294967296 does not fit the driver's "
       "32-bit size"},
      {"kernel k\narg A f16 2199023255552\n",
       "line 2: arg 'A' of shape '2199023255552' has more than 2^40 elements"},
      {"kernel k\narg A f16 99999999999999999999x2\n",
       "line 2: arg 'A' of shape '99999999999999999999x2' has more than 2^40 "
       "elements"},
      {"kernel k\ngrid 1 70000\n",
       "line 2: 'grid' extent 70000 in y is above CUDA's limit of 65535"},
      {"kernel k\nblock 32 1 128\n",
       "line 2: 'block' extent 128 in z is above CUDA's limit of 64"},
      {"kernel k\nblock 64 32\n",
       "line 2: 'block' of 2048 threads is above CUDA's limit of 1024"},
      {"kernel k\nshared_bytes lots\n",
       "line 2: 'shared_bytes' value 'lots' is not a non-negative integer"},
      {"kernel k\narg A f64 2x2\n",
       "line 2: unsupported element type 'f64' of arg 'A' (expected f16, "
       "bf16 or f32)"},
      {"kernel k\narg A f16 2xx2\n",
       "line 2: bad shape '2xx2' of arg 'A' (expected positive extents like "
       "128x64, or '?' for one given at run time)"},
      {"kernel k\narg A f16 0x2\n",
       "line 2: bad shape '0x2' of arg 'A' (expected positive extents like "
       "128x64, or '?' for one given at run time)"},
      {"kernel k\narg A f16 1099511627776x1099511627776\n",
       "line 2: arg 'A' of shape '1099511627776x1099511627776' has more than "
       "2^40 elements"},
      {"kernel k\narg A f16 3037000500x3037000500\n",
       "line 2: arg 'A' of shape '3037000500x3037000500' has more than 2^40 "
       "elements"},
      {"kernel k\narg A f16\n",
       "line 2: expected 'arg <name> <f16|bf16|f32> <d0>x<d1> [divisible "
       "<n>]'"},
      {"kernel k\narg A f16 ?x8 divisible 0\n",
       "line 2: 'divisible' value '0' of arg 'A' is not an integer in 1..2^30"},
      {"kernel k\narg A f16 ?x8 multiple 8\n",
       "line 2: expected 'arg <name> <f16|bf16|f32> <d0>x<d1> [divisible "
       "<n>]'"},
      {"kernel k\ngemm_transpose 1\n",
       "line 2: expected 'gemm_transpose <0|1> <0|1>' (A, then B)"},
      {"kernel k\ngemm_transpose yes no\n",
       "line 2: expected 'gemm_transpose <0|1> <0|1>' (A, then B)"},
      {"kernel k\ngemm_transpose 1 0\ngemm_transpose 1 0\n",
       "line 3: duplicate 'gemm_transpose' line"},
      {"kernel k\narg A f16 2x2\narg A f16 2x2\n", "line 3: duplicate arg 'A'"},
      {"kernel k\ngrid_expr 1 1 1\ngrid_expr 2 1 1\n",
       "line 3: duplicate 'grid_expr' line"},
      {"kernel k\ntensormap A 64x32\n",
       "line 2: expected 'tensormap <arg> <rows>x<cols> swizzle "
       "<none|32|64|128>'"},
      {"kernel k\ntensormap A 64x32 swizzle 16\n",
       "line 2: unsupported swizzle '16' of tensormap 'A' (expected none, 32, "
       "64 or 128)"},
      {"kernel k\ntensormap A 64 swizzle none\n",
       "line 2: bad box '64' of tensormap 'A' (expected <rows>x<cols> like "
       "64x32)"},
      {"kernel k\ntensormap A 0x32 swizzle none\n",
       "line 2: tensormap box 0x32 of arg 'A' is out of range: rows and "
       "columns must be 1..256"},
      {"kernel k\ntensormap A 64x257 swizzle none\n",
       "line 2: tensormap box 64x257 of arg 'A' is out of range: rows and "
       "columns must be 1..256"},
      {"kernel k\ncluster 2 1\n", "line 2: expected 'cluster <x> <y> <z>'"},
      {"kernel k\ncluster 2 0 1\n",
       "line 2: 'cluster' extent '0' is not an integer in 1..8"},
      {"kernel k\ncluster 4 4 1\n",
       "line 2: a cluster of 4x4x1 blocks is more than 8"},
      {"kernel k\ncluster 2 1 1\ncluster 2 1 1\n",
       "line 3: duplicate 'cluster' line"},
      {"kernel k\ngrid 31 32 1\nblock 128\ncluster 2 1 1\n",
       "line 4: the grid (31 32 1) is not a whole number of clusters of 2 1 1"},
      {"kernel k\ngrid 1\nblock 1\ntensormap A 64x32 swizzle none\n",
       "line 4: tensormap names arg 'A', but no 'arg A ...' line declares it"},
      // A misspelt key is often why a later line fails: its warning ends
      // the error.
      {"kernel k\ngrid 1\nblock 1\nagr A f16 8x8\n"
       "tensormap A 8x8 swizzle none\n",
       "line 5: tensormap names arg 'A', but no 'arg A ...' line declares it; "
       "note: line 4: unknown key 'agr' ignored"},
      {"kernel k\ngrid 1\nblock 1\narg A f16 4096\n"
       "tensormap A 64x32 swizzle none\n",
       "line 5: tensormap of arg 'A' (f16 4096, box 64x32, swizzle none): the "
       "arg has rank 1, but a tensor map needs a rank-2 arg"},
      {"kernel k\ngrid 1\nblock 1\narg A f32 64x64\n"
       "tensormap A 8x2 swizzle none\n",
       "line 5: tensormap of arg 'A' (f32 64x64, box 8x2, swizzle none): a box "
       "row of 2 elements is 8 bytes, not a multiple of 16 (TMA needs the "
       "box's inner extent in bytes to be one)"},
      {"kernel k\ngrid 1\nblock 1\narg A f32 64x64\n"
       "tensormap A 8x16 swizzle 32\n",
       "line 5: tensormap of arg 'A' (f32 64x64, box 8x16, swizzle 32): a box "
       "row of 16 elements is 64 bytes, more than the 32-byte swizzle span"},
      {"kernel k\ngrid 1\nblock 1\narg A bf16 64x100\n"
       "tensormap A 8x8 swizzle none\n",
       "line 5: tensormap of arg 'A' (bf16 64x100, box 8x8, swizzle none): its "
       "row pitch of 100 elements is 200 bytes, not a multiple of 16 (TMA "
       "needs 16-byte aligned global strides)"},
  };
  for (const BadCase &c : cases) {
    std::string error;
    EXPECT_FALSE(parse(c.text, error)) << c.text;
    EXPECT_EQ(error, c.error) << c.text;
  }
}

// What the compiler writes for a kernel whose tensors have sizes known only
// at run time: `?` extents, `?` grid extents and the formulas for them.
const char *kDynamic = R"(kernel gemm_kernel
grid ? ? 1
block 128 1 1
arg A f16 ?x?
arg B f16 ?x3000
arg C f16 ?x?
grid_expr ceildiv(dim(B,1),128) ceildiv(dim(A,0),128) 1
)";

TEST(LaunchDesc, BindsShapesGivenAtRunTime) {
  std::string error;
  std::optional<LaunchDesc> desc = parse(kDynamic, error);
  ASSERT_TRUE(desc) << error;
  EXPECT_EQ(desc->grid, (std::array<unsigned, 3>{0, 0, 1}));
  EXPECT_EQ(desc->args[1].str(), "f16 ?x3000");
  EXPECT_EQ(desc->args[1].dynamicDims, (std::vector<unsigned>{0}));
  // A's 2, B's 1 and C's 2 extents follow the three pointers.
  EXPECT_EQ(desc->numSizeParams(), 5u);
  EXPECT_EQ(desc->numParams(), 8u);

  ASSERT_TRUE(bindShapes(
      *desc, {{"A", {1000, 777}}, {"B", {777, 3000}}, {"C", {1000, 3000}}},
      error))
      << error;
  EXPECT_EQ(desc->grid, (std::array<unsigned, 3>{24, 8, 1}));
  EXPECT_EQ(desc->args[0].shape, (std::vector<int64_t>{1000, 777}));
  EXPECT_EQ(desc->sizeParams(),
            (std::vector<int64_t>{1000, 777, 777, 1000, 3000}));
  EXPECT_EQ(desc->args[2].numBytes(), int64_t(1000) * 3000 * 2);

  // `divisible`: what the kernel assumed of the '?' extents.
  desc =
      parse("kernel k\ngrid 1\nblock 32\narg A f16 ?x8 divisible 8\n", error);
  ASSERT_TRUE(desc) << error;
  EXPECT_EQ(desc->args[0].divisor, 8);
  EXPECT_TRUE(bindShapes(*desc, {{"A", {16, 8}}}, error)) << error;

  // Static descriptions bind with no shapes, and shapes that agree.
  desc = parse("kernel k\ngrid 2\nblock 32\narg A f16 8x8\n", error);
  ASSERT_TRUE(desc) << error;
  EXPECT_TRUE(bindShapes(*desc, {}, error)) << error;
  EXPECT_TRUE(bindShapes(*desc, {{"A", {8, 8}}}, error)) << error;
  EXPECT_EQ(desc->numParams(), 1u);
}

TEST(LaunchDesc, EvaluatesGridFormulas) {
  struct Case {
    const char *formula;
    unsigned grid;
  } cases[] = {
      {"7", 7},
      {"dim(A,1)", 96},
      {"ceildiv(dim(A,0),64)", 16},
      {"(ceildiv(dim(A,0),64)*ceildiv(dim(A,1),32))", 48},
      {"((dim(A,0)+dim(A,1))/2)", 548},
      {"(dim(A,0)-dim(A,1))", 904},
      {"min(264,(ceildiv(dim(A,0),64)*ceildiv(dim(A,1),32)))", 48},
      {"min(dim(A,1),7)", 7},
      // The compiler writes a negative constant as a difference.
      {"ceildiv((dim(A,0)+(0-64)),32)", 30},
      // Rounded up without forming a + b - 1, which would overflow here.
      {"ceildiv(((1099511627776*1048576)*4),((1099511627776*1048576)*4))", 1},
      // Values wrap as the kernel's index ops do: 1000 * 2^62 is 0.
      {"((dim(A,0)*4611686018427387904)+7)", 7},
      // min, / and ceildiv are unsigned (arith.minui, divui, ceildivui):
      // 1000 - 1064 is 2^64 - 64, above 4.
      {"min((dim(A,0)-1064),4)", 4},
      {"min((0-1),ceildiv(dim(A,0),32))", 32},
      {"min(((dim(A,0)-1064)/1099511627776),9)", 9},
      {"min(ceildiv((dim(A,0)-1064),1099511627776),9)", 9},
      // mins, divs and ceildivs are signed, rounded up (ceildivs) or toward
      // zero (divs) for either sign.
      {"(mins((dim(A,0)-1064),4)+65)", 1},
      {"(ceildivs((0-8),3)+3)", 1},
      {"(ceildivs((0-8),(0-3))-2)", 1},
      {"(ceildivs(8,(0-3))+3)", 1},
      {"(divs((0-8),3)+3)", 1},
      {"divs((0-9),(0-3))", 3},
      // The least signed value, written as the compiler writes it.
      {"(divs((0-9223372036854775808),4611686018427387904)+3)", 1},
  };
  for (const Case &c : cases) {
    std::string error;
    std::optional<LaunchDesc> desc =
        parse(std::string("kernel k\ngrid ?\nblock 32\narg A f16 ?x96\n"
                          "grid_expr ") +
                  c.formula + "\n",
              error);
    ASSERT_TRUE(desc) << error;
    ASSERT_TRUE(bindShapes(*desc, {{"A", {1000, 96}}}, error))
        << c.formula << ": " << error;
    EXPECT_EQ(desc->grid[0], c.grid) << c.formula;
  }
}

TEST(LaunchDesc, RejectsShapesThatDoNotFit) {
  struct Case {
    const char *text;
    std::vector<std::pair<std::string, std::vector<int64_t>>> shapes;
    const char *error;
  } cases[] = {
      {kDynamic,
       {{"A", {1000, 777}}},
       "arg 'B' (f16 ?x3000) has extents known only at run time: give its "
       "shape (in tile-run: --shape B=<d0>x<d1>)"},
      {kDynamic,
       {{"B", {777, 2000}}},
       "the shape given for arg 'B', 777x2000, does not fit its 'arg' line "
       "(f16 ?x3000)"},
      {kDynamic,
       {{"B", {777}}},
       "the shape given for arg 'B', 777, does not fit its 'arg' line "
       "(f16 ?x3000)"},
      {kDynamic,
       {{"D", {1, 1}}},
       "a shape is given for arg 'D', which the launch description does not "
       "have"},
      {"kernel k\ngrid ?\nblock 32\narg A f16 ?\n",
       {{"A", {8}}},
       "the grid's extent in x is '?' but grid_expr ('') has no formula for "
       "it"},
      {"kernel k\ngrid ?\nblock 32\narg A f16 ?\ngrid_expr ceildiv(?,8)\n",
       {{"A", {8}}},
       "cannot compute the grid from grid_expr 'ceildiv(?,8)': the compiler "
       "could not describe it ('?')"},
      {"kernel k\ngrid ?\nblock 32\narg A f16 ?\ngrid_expr dim(B,0)\n",
       {{"A", {8}}},
       "cannot compute the grid from grid_expr 'dim(B,0)': no arg 'B'"},
      {"kernel k\ngrid ?\nblock 32\narg A f16 ?\ngrid_expr dim(A,1)\n",
       {{"A", {8}}},
       "cannot compute the grid from grid_expr 'dim(A,1)': arg 'A' has no "
       "dimension 1"},
      {"kernel k\ngrid ?\nblock 32\narg A f16 ?\ngrid_expr "
       "(1099511627776*8388608)\n",
       {{"A", {8}}},
       "the grid's extent in x, (1099511627776*8388608) = "
       "-9223372036854775808, is not in 1..2147483647"},
      {"kernel k\ngrid ?\nblock 32\narg A f16 ?\ngrid_expr "
       "ceildiv(dim(A,0),99999999999999999999)\n",
       {{"A", {8}}},
       "cannot compute the grid from grid_expr "
       "'ceildiv(dim(A,0),99999999999999999999)': the number "
       "99999999999999999999 does not fit 64 bits"},
      {"kernel k\ngrid ?\nblock 32\narg A f16 ?\ngrid_expr ceildiv(8,0)\n",
       {{"A", {8}}},
       "cannot compute the grid from grid_expr 'ceildiv(8,0)': division by 0"},
      {"kernel k\ngrid ?\nblock 32\narg A f16 ?\ngrid_expr divs(8,0)\n",
       {{"A", {8}}},
       "cannot compute the grid from grid_expr 'divs(8,0)': division by 0"},
      {"kernel k\ngrid ?\nblock 32\narg A f16 ?\ngrid_expr "
       "ceildivs((0-9223372036854775808),(0-1))\n",
       {{"A", {8}}},
       "cannot compute the grid from grid_expr "
       "'ceildivs((0-9223372036854775808),(0-1))': a signed quotient "
       "overflows"},
      {"kernel k\ngrid ?\nblock 32\narg A f16 ?\ngrid_expr mins(1)\n",
       {{"A", {8}}},
       "cannot compute the grid from grid_expr 'mins(1)': expected "
       "'mins(a,b)'"},
      {"kernel k\ngrid ?\nblock 32\narg A f16 ?\ngrid_expr min(dim(A,0))\n",
       {{"A", {8}}},
       "cannot compute the grid from grid_expr 'min(dim(A,0))': expected "
       "'min(a,b)'"},
      {"kernel k\ngrid ?\nblock 32\narg A f16 ?\ngrid_expr (dim(A,0)%2)\n",
       {{"A", {8}}},
       "cannot compute the grid from grid_expr '(dim(A,0)%2)': unknown "
       "operator '%'"},
      {"kernel k\ngrid ?\nblock 32\narg A f16 ?\ngrid_expr dim(A,0)x\n",
       {{"A", {8}}},
       "cannot compute the grid from grid_expr 'dim(A,0)x': unexpected 'x'"},
      {"kernel k\ngrid 1 ?\nblock 32\narg A f16 ?\ngrid_expr 1 dim(A,0)\n",
       {{"A", {70000}}},
       "the grid's extent in y, dim(A,0) = 70000, is not in 1..65535"},
      {"kernel k\ngrid ?\nblock 32\narg A f16 ?\ngrid_expr (dim(A,0)-9)\n",
       {{"A", {8}}},
       "the grid's extent in x, (dim(A,0)-9) = -1, is not in 1..2147483647"},
      {"kernel k\ngrid 1\nblock 32\narg A f16 ?x8 divisible 8\n",
       {{"A", {12, 8}}},
       "the shape given for arg 'A', 12x8, has extent 12 in dimension 0, but "
       "the kernel was compiled for '?' extents that are multiples of 8 "
       "(divisible 8)"},
      {"kernel k\ngrid ?\nblock 32\ncluster 2 1 1\narg A f16 ?\n"
       "grid_expr dim(A,0)\n",
       {{"A", {7}}},
       "the grid (7 1 1) is not a whole number of clusters of 2 1 1"},
  };
  for (const Case &c : cases) {
    std::string error;
    std::optional<LaunchDesc> desc = parse(c.text, error);
    ASSERT_TRUE(desc) << c.text << error;
    EXPECT_FALSE(bindShapes(*desc, c.shapes, error)) << c.text;
    EXPECT_EQ(error, c.error) << c.text;
  }
}

// A tensor map over an arg with '?' extents: the box is checked when the
// description is read, the row pitch once the extents are bound.
TEST(LaunchDesc, TensorMapsOverExtentsGivenAtRunTime) {
  std::string error;
  std::optional<LaunchDesc> rows =
      parse("kernel k\ngrid 1\nblock 32\narg A f16 ?x64\n"
            "tensormap A 8x8 swizzle none\n",
            error);
  ASSERT_TRUE(rows) << error;
  EXPECT_TRUE(bindShapes(*rows, {{"A", {40, 64}}}, error)) << error;
  EXPECT_EQ(rows->args[0].shape, (std::vector<int64_t>{40, 64}));

  const char *colsText = "kernel k\ngrid 1\nblock 32\narg A f16 16x?\n"
                         "tensormap A 8x8 swizzle none\n";
  std::optional<LaunchDesc> cols = parse(colsText, error);
  ASSERT_TRUE(cols) << error;
  EXPECT_TRUE(bindShapes(*cols, {{"A", {16, 24}}}, error)) << error;
  cols = parse(colsText, error);
  ASSERT_TRUE(cols) << error;
  EXPECT_FALSE(bindShapes(*cols, {{"A", {16, 12}}}, error));
  EXPECT_EQ(error, "tensormap of arg 'A' (f16 16x12, box 8x8, swizzle none): "
                   "its row pitch of 12 elements is 24 bytes, not a multiple "
                   "of 16 (TMA needs 16-byte aligned global strides)");

  // A box that the TMA cannot move fails when the description is read.
  EXPECT_FALSE(parse("kernel k\ngrid 1\nblock 32\narg A f16 ?x?\n"
                     "tensormap A 8x4 swizzle none\n",
                     error));
  EXPECT_EQ(error, "line 5: tensormap of arg 'A' (f16 ?x?, box 8x4, swizzle "
                   "none): a box row of 4 elements is 8 bytes, not a "
                   "multiple of 16 (TMA needs the box's inner extent in bytes "
                   "to be one)");
}

// More args or tensor maps than a kernel's parameters hold is an error at
// the line that overflows them, which also keeps the parse linear.
TEST(LaunchDesc, RejectsMoreParametersThanAKernelTakes) {
  std::string text = "kernel k\ngrid 1\nblock 32\n";
  for (int i = 0; i < 4095; ++i)
    text += "arg a" + std::to_string(i) + " f16 8x8\n";
  std::string error;
  EXPECT_TRUE(parse(text, error)) << error;
  EXPECT_FALSE(parse(text + "arg last f16 8x8\n", error));
  EXPECT_EQ(error, "line 4099: more args than the 32764 bytes of a kernel's "
                   "parameters hold");
  std::string maps = "kernel k\ngrid 1\nblock 32\narg A f16 64x64\n";
  for (int i = 0; i < 255; ++i)
    maps += "tensormap A 64x64 swizzle 128\n";
  EXPECT_TRUE(parse(maps, error)) << error;
  EXPECT_FALSE(parse(maps + "tensormap A 64x64 swizzle 128\n", error));
  EXPECT_EQ(error, "line 260: more tensor maps than the 32764 bytes of a "
                   "kernel's parameters hold");
}

TEST(LaunchDesc, ReadFileNamesTheFileAndTheReason) {
  std::string contents, error;
  EXPECT_FALSE(readFile("/nonexistent/dir/x.launch", contents, error));
  EXPECT_EQ(error, "cannot open '/nonexistent/dir/x.launch': No such file or "
                   "directory");
  EXPECT_FALSE(readFile("/", contents, error));
  EXPECT_EQ(error, "cannot read '/': it is a directory");
  // A device that never ends stops at the limit.
  EXPECT_FALSE(readFile("/dev/zero", contents, error, 1 << 20));
  EXPECT_EQ(error, "cannot read '/dev/zero': it holds more than 1048576 bytes");
}

} // namespace

// A formula nested deeper than the compiler writes (the evaluator recurses
// once per level) is an error, not a stack overflow.
TEST(LaunchDesc, RejectsFormulasNestedTooDeep) {
  std::string deep = std::string(1000000, '(') + "1";
  for (int i = 0; i < 1000000; ++i)
    deep += "+1)";
  std::string error;
  std::optional<LaunchDesc> desc =
      parse("kernel k\ngrid ?\nblock 32\narg A f16 ?\ngrid_expr " + deep + "\n",
            error);
  ASSERT_TRUE(desc) << error;
  EXPECT_FALSE(bindShapes(*desc, {{"A", {8}}}, error));
  EXPECT_NE(error.find("the formula is nested more than 256 levels deep"),
            std::string::npos)
      << error;
}
