//===- NpyTest.cpp - .npy reading and writing -----------------------------===//

#include "tilekit/Support/Npy.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "gtest/gtest.h"

using namespace tilekit;

namespace {

std::string header(llvm::StringRef dict) {
  std::string text = "\x93NUMPY";
  text += '\x01';
  text += '\x00';
  std::string padded = dict.str();
  while ((10 + padded.size() + 1) % 64)
    padded += ' ';
  padded += '\n';
  text += static_cast<char>(padded.size() & 0xff);
  text += static_cast<char>(padded.size() >> 8);
  return text + padded;
}

TEST(NpyTest, ParsesAHeaderAndData) {
  std::string bytes =
      header("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }");
  bytes.append(24, '\0');
  auto array = parseNpy(bytes, "mem");
  ASSERT_TRUE(static_cast<bool>(array)) << toString(array.takeError());
  EXPECT_EQ(array->descr, "<f4");
  EXPECT_EQ(array->shape, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(array->data.size(), 24u);
}

TEST(NpyTest, ScalarAndOneByteTypes) {
  std::string bytes =
      header("{'descr': '|b1', 'fortran_order': False, 'shape': (), }");
  bytes.append(1, '\1');
  auto array = parseNpy(bytes, "mem");
  ASSERT_TRUE(static_cast<bool>(array)) << toString(array.takeError());
  EXPECT_EQ(array->descr, "<b1");
  EXPECT_TRUE(array->shape.empty());
  EXPECT_EQ(array->numElements(), 1);
}

TEST(NpyTest, RejectsWhatItCannotRead) {
  auto expectError = [](const std::string &bytes, llvm::StringRef message) {
    auto array = parseNpy(bytes, "in.npy");
    ASSERT_FALSE(static_cast<bool>(array));
    std::string text = toString(array.takeError());
    EXPECT_NE(text.find(message), std::string::npos) << text;
  };
  expectError("not numpy", "missing the \\x93NUMPY magic");
  expectError(
      header("{'descr': '<f4', 'fortran_order': True, 'shape': (2,), }") +
          std::string(8, '\0'),
      "Fortran-order arrays are not supported");
  expectError(
      header("{'descr': '<c8', 'fortran_order': False, 'shape': (2,), }"),
      "element type '<c8' is not supported");
  expectError(
      header("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }") +
          std::string(7, '\0'),
      "holds 7 data bytes, but shape (2,) of <f4 needs 8");
}

TEST(NpyTest, WriteThenReadRoundTrips) {
  llvm::SmallString<128> dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("npytest", dir));
  llvm::SmallString<128> path(dir);
  llvm::sys::path::append(path, "a.npy");
  NpyArray array;
  array.descr = "<i2";
  array.shape = {3};
  array.data = {1, 0, 2, 0, 0xff, 0xff};
  ASSERT_FALSE(static_cast<bool>(writeNpy(path, array)));
  auto read = readNpy(path);
  ASSERT_TRUE(static_cast<bool>(read)) << toString(read.takeError());
  EXPECT_EQ(read->descr, "<i2");
  EXPECT_EQ(read->shape, array.shape);
  // The elements are read in place from the file.
  EXPECT_TRUE(read->file != nullptr);
  EXPECT_EQ(std::vector<uint8_t>(read->elements(), read->elements() + 6),
            array.data);
  // Nothing but the file itself is left behind.
  std::error_code error;
  int entries = 0;
  for (llvm::sys::fs::directory_iterator it(dir, error), end;
       it != end && !error; it.increment(error))
    ++entries;
  EXPECT_EQ(entries, 1);
  llvm::sys::fs::remove_directories(dir);
}

TEST(NpyTest, FailedWriteLeavesNothing) {
  NpyArray array;
  array.descr = "<f4";
  array.shape = {1};
  array.data = {0, 0, 0, 0};
  llvm::Error error = writeNpy("/nonexistent-dir/a.npy", array);
  ASSERT_TRUE(static_cast<bool>(error));
  EXPECT_NE(toString(std::move(error)).find("cannot write"), std::string::npos);
}

} // namespace
