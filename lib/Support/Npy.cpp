//===- Npy.cpp - NumPy .npy files -----------------------------------------===//
//
// Format: "\x93NUMPY", major and minor version bytes, a little-endian header
// length (2 bytes in version 1, 4 in versions 2 and 3), then a Python dict
// literal {'descr': ..., 'fortran_order': ..., 'shape': (...)} padded with
// spaces and a newline so that the data starts 64-byte aligned.
//
//===----------------------------------------------------------------------===//

#include "tilekit/Support/Npy.h"
#include "tilekit/Support/CheckedSize.h"
#include "tilekit/Support/InputFile.h"

#include "tilekit/Support/AtomicFile.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace tilekit;

static constexpr StringLiteral kMagic("\x93NUMPY");

unsigned tilekit::npyElementSize(StringRef descr) {
  if (descr.size() < 3)
    return 0;
  char kind = descr[1];
  if (kind != 'f' && kind != 'i' && kind != 'u' && kind != 'b')
    return 0;
  unsigned size = 0;
  if (descr.drop_front(2).getAsInteger(10, size))
    return 0;
  if (kind == 'f' && size != 2 && size != 4 && size != 8)
    return 0;
  if ((kind == 'i' || kind == 'u') && size != 1 && size != 2 && size != 4 &&
      size != 8)
    return 0;
  if (kind == 'b' && size != 1)
    return 0;
  return size;
}

int64_t NpyArray::numElements() const {
  int64_t count = 1;
  for (int64_t dim : shape)
    count *= dim;
  return count;
}

unsigned NpyArray::elementSize() const { return npyElementSize(descr); }

/// The value of `key` in the header dict, as raw text up to the next
/// top-level comma or closing brace.
static std::optional<StringRef> headerField(StringRef header, StringRef key) {
  size_t at = header.find(("'" + key + "'").str());
  if (at == StringRef::npos)
    return std::nullopt;
  StringRef rest = header.drop_front(at + key.size() + 2).ltrim();
  if (!rest.consume_front(":"))
    return std::nullopt;
  rest = rest.ltrim();
  if (rest.starts_with("(")) {
    size_t close = rest.find(')');
    if (close == StringRef::npos)
      return std::nullopt;
    return rest.take_front(close + 1);
  }
  size_t end = rest.find_first_of(",}");
  return rest.take_front(end).rtrim();
}

/// The array `bytes` describe, without its elements, which are the bytes
/// `elements` is set to.
static Expected<NpyArray> parseHeader(StringRef bytes, StringRef name,
                                      StringRef &elements) {
  auto fail = [&](const Twine &why) {
    return createStringError(inconvertibleErrorCode(),
                             name + ": not a valid .npy file: " + why);
  };
  if (!bytes.starts_with(kMagic) || bytes.size() < 10)
    return fail("missing the \\x93NUMPY magic");
  uint8_t major = bytes[6];
  size_t headerLength, headerStart;
  if (major == 1) {
    headerLength = static_cast<uint8_t>(bytes[8]) |
                   (static_cast<size_t>(static_cast<uint8_t>(bytes[9])) << 8);
    headerStart = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12)
      return fail("truncated header");
    headerLength = 0;
    for (int i = 0; i < 4; ++i)
      headerLength |= static_cast<size_t>(static_cast<uint8_t>(bytes[8 + i]))
                      << (8 * i);
    headerStart = 12;
  } else {
    return fail("unsupported version " + Twine(major));
  }
  if (bytes.size() < headerStart + headerLength)
    return fail("truncated header");
  StringRef header = bytes.substr(headerStart, headerLength);

  NpyArray array;
  std::optional<StringRef> descr = headerField(header, "descr");
  std::optional<StringRef> order = headerField(header, "fortran_order");
  std::optional<StringRef> shape = headerField(header, "shape");
  if (!descr || !order || !shape)
    return fail("header lacks descr, fortran_order or shape");
  StringRef type = descr->trim("'\" ");
  if (type.size() >= 2 && type[0] == '>' && !type.ends_with("1"))
    return fail("big-endian arrays are not supported");
  // Single-byte types have no byte order ('|'); normalize to '<'.
  array.descr = ("<" + type.drop_front(1)).str();
  if (type.empty() ||
      (type[0] != '<' && type[0] != '|' && type[0] != '=' && type[0] != '>'))
    return fail("unknown type '" + type + "'");
  if (!array.elementSize())
    return fail("element type '" + type +
                "' is not supported (use f2, f4, "
                "f8, i1-i8, u1-u8 or b1)");
  if (order->trim() == "True")
    return fail("Fortran-order arrays are not supported; save "
                "np.ascontiguousarray(a)");
  if (order->trim() != "False")
    return fail("bad fortran_order '" + order->trim() +
                "' (expected True or False)");
  SmallVector<StringRef> dims;
  shape->trim("() ").split(dims, ',', -1, /*KeepEmpty=*/false);
  for (StringRef dim : dims) {
    int64_t extent;
    if (dim.trim().getAsInteger(10, extent) || extent < 0)
      return fail("bad shape " + *shape);
    array.shape.push_back(extent);
  }
  Expected<uint64_t> expected =
      checkedBytes(array.shape, array.elementSize(), "shape " + *shape);
  if (!expected)
    return fail(toString(expected.takeError()));
  StringRef data = bytes.drop_front(headerStart + headerLength);
  if (data.size() != *expected)
    return fail("holds " + Twine(data.size()) + " data bytes, but shape " +
                *shape + " of " + type + " needs " + Twine(*expected));
  elements = data;
  return array;
}

Expected<NpyArray> tilekit::parseNpy(StringRef bytes, StringRef name) {
  StringRef elements;
  Expected<NpyArray> array = parseHeader(bytes, name, elements);
  if (array)
    array->data.assign(elements.begin(), elements.end());
  return array;
}

Expected<NpyArray> tilekit::readNpy(StringRef path) {
  Expected<std::unique_ptr<MemoryBuffer>> buffer = readInputFile(path);
  if (!buffer)
    return buffer.takeError();
  StringRef elements;
  Expected<NpyArray> array =
      parseHeader((*buffer)->getBuffer(), path, elements);
  if (!array)
    return array.takeError();
  array->fileElements = reinterpret_cast<const uint8_t *>(elements.data());
  array->file = std::move(*buffer);
  return array;
}

Expected<std::string> tilekit::encodeNpy(const NpyArray &array) {
  if (!array.elementSize())
    return createStringError(inconvertibleErrorCode(),
                             "element type '" + array.descr +
                                 "' is not supported");
  std::string dict;
  raw_string_ostream os(dict);
  StringRef descr = array.descr;
  if (array.elementSize() == 1)
    os << "{'descr': '|" << descr.drop_front(1) << "', ";
  else
    os << "{'descr': '" << descr << "', ";
  os << "'fortran_order': False, 'shape': (";
  for (int64_t dim : array.shape)
    os << dim << (array.shape.size() == 1 ? "," : ", ");
  if (array.shape.size() > 1)
    dict.resize(dict.size() - 2);
  os << "), }";
  // Pad so that magic + version + length + header is a multiple of 64.
  size_t total = 10 + dict.size() + 1;
  dict.append((64 - total % 64) % 64, ' ');
  dict.push_back('\n');

  std::string bytes;
  raw_string_ostream out(bytes);
  out << kMagic << '\x01' << '\x00';
  out << static_cast<char>(dict.size() & 0xff)
      << static_cast<char>(dict.size() >> 8);
  out << dict;
  out.write(reinterpret_cast<const char *>(array.elements()),
            array.numElements() * array.elementSize());
  out.flush();
  return bytes;
}

Error tilekit::writeNpy(StringRef path, const NpyArray &array) {
  Expected<std::string> bytes = encodeNpy(array);
  if (!bytes)
    return createStringError(inconvertibleErrorCode(),
                             "cannot write '" + path +
                                 "': " + toString(bytes.takeError()));
  return writeFileAtomically(path, *bytes);
}
