TEST(Api, BlockSize) {
  EXPECT_EQ(errors, "block size must be "
                    "a constant\n");
}
