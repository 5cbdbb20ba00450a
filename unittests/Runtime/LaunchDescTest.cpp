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
)",
                                         error);
  ASSERT_TRUE(desc) << error;
  EXPECT_EQ(desc->kernel, "matmul_auto_kernel");
  EXPECT_EQ(desc->chip, "sm_90");
  EXPECT_EQ(desc->grid, (std::array<unsigned, 3>{32, 32, 1}));
  EXPECT_EQ(desc->block, (std::array<unsigned, 3>{128, 1, 1}));
  EXPECT_EQ(desc->sharedBytes, 49152u);
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
  ASSERT_EQ(desc->warnings.size(), 1u);
  EXPECT_EQ(desc->warnings[0], "line 4: unknown key 'registers' ignored");
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
      {"kernel a\nkernel b\n", "line 2: duplicate 'kernel' line"},
      {"kernel k\ngrid 0 1 1\n",
       "line 2: 'grid' extent '0' is not a positive integer"},
      {"kernel k\ngrid 1 1 1 1\n", "line 2: expected 'grid <x> [<y> [<z>]]'"},
      {"kernel k\ngrid 32 -1 1\n",
       "line 2: 'grid' extent -1: known only at run time, which tile-run does "
       "not support (compile with static shapes)"},
      {"kernel k\nblock -4\n",
       "line 2: 'block' extent '-4' is not a positive integer"},
      {"kernel k\nshared_bytes lots\n",
       "line 2: 'shared_bytes' value 'lots' is not a non-negative integer"},
      {"kernel k\narg A f64 2x2\n",
       "line 2: unsupported element type 'f64' of arg 'A' (expected f16, "
       "bf16 or f32)"},
      {"kernel k\narg A f16 2xx2\n",
       "line 2: bad shape '2xx2' of arg 'A' (expected positive extents like "
       "128x64)"},
      {"kernel k\narg A f16 0x2\n",
       "line 2: bad shape '0x2' of arg 'A' (expected positive extents like "
       "128x64)"},
      {"kernel k\narg A f16\n",
       "line 2: expected 'arg <name> <f16|bf16|f32> <d0>x<d1>'"},
      {"kernel k\ngemm_transpose 1\n",
       "line 2: expected 'gemm_transpose <0|1> <0|1>' (A, then B)"},
      {"kernel k\ngemm_transpose yes no\n",
       "line 2: expected 'gemm_transpose <0|1> <0|1>' (A, then B)"},
      {"kernel k\ngemm_transpose 1 0\ngemm_transpose 1 0\n",
       "line 3: duplicate 'gemm_transpose' line"},
  };
  for (const BadCase &c : cases) {
    std::string error;
    EXPECT_FALSE(parse(c.text, error)) << c.text;
    EXPECT_EQ(error, c.error) << c.text;
  }
}

TEST(LaunchDesc, ReadFileNamesTheFileAndTheReason) {
  std::string contents, error;
  EXPECT_FALSE(readFile("/nonexistent/dir/x.launch", contents, error));
  EXPECT_EQ(error, "cannot open '/nonexistent/dir/x.launch': No such file or "
                   "directory");
}

} // namespace
