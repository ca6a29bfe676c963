//===- SharedObject.cpp - A shared object checked before dlopen -----------===//

#include "tilekit/Support/SharedObject.h"

#include "llvm/ADT/bit.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstring>
#include <elf.h>

using namespace llvm;

static Error invalid(const Twine &why) {
  return createStringError(inconvertibleErrorCode(), why);
}

/// The host's ELF machine: a shared object for another cannot be loaded.
static constexpr uint16_t hostMachine() {
#if defined(__x86_64__)
  return EM_X86_64;
#elif defined(__aarch64__)
  return EM_AARCH64;
#else
  return EM_NONE; // not checked
#endif
}

/// Whether [offset, offset + size) lies inside a file of `fileSize` bytes.
static bool inside(uint64_t offset, uint64_t size, uint64_t fileSize) {
  return offset <= fileSize && size <= fileSize - offset;
}

Error tilekit::checkSharedObject(StringRef path, StringRef symbol) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> file =
      MemoryBuffer::getFile(path, /*IsText=*/false,
                            /*RequiresNullTerminator=*/false);
  if (!file)
    return invalid("cannot read it: " + file.getError().message());
  StringRef bytes = (*file)->getBuffer();
  uint64_t size = bytes.size();
  Elf64_Ehdr header;
  if (size < sizeof header)
    return invalid("not a shared object: " + Twine(size) +
                   " bytes, fewer than an ELF header's " +
                   Twine(sizeof header));
  std::memcpy(&header, bytes.data(), sizeof header);
  if (std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0)
    return invalid("not a shared object: no ELF magic number");
  if (header.e_ident[EI_CLASS] != ELFCLASS64 ||
      header.e_ident[EI_DATA] !=
          (llvm::endianness::native == llvm::endianness::little ? ELFDATA2LSB
                                                                : ELFDATA2MSB))
    return invalid("an ELF file of another word size or byte order");
  if (header.e_type != ET_DYN)
    return invalid("an ELF file but not a shared object (type " +
                   Twine(header.e_type) + ")");
  if (hostMachine() != EM_NONE && header.e_machine != hostMachine())
    return invalid("a shared object for another machine (ELF machine " +
                   Twine(header.e_machine) + ")");
  if (header.e_phentsize != sizeof(Elf64_Phdr) ||
      !inside(header.e_phoff, uint64_t(header.e_phnum) * sizeof(Elf64_Phdr),
              size))
    return invalid("truncated or damaged: its program headers lie outside "
                   "its " +
                   Twine(size) + " bytes");
  for (unsigned i = 0; i < header.e_phnum; ++i) {
    Elf64_Phdr segment;
    std::memcpy(&segment, bytes.data() + header.e_phoff + i * sizeof segment,
                sizeof segment);
    if (segment.p_type == PT_LOAD &&
        !inside(segment.p_offset, segment.p_filesz, size))
      return invalid("truncated or damaged: segment " + Twine(i) +
                     " ends past its " + Twine(size) + " bytes");
  }
  if (header.e_shentsize != sizeof(Elf64_Shdr) ||
      !inside(header.e_shoff, uint64_t(header.e_shnum) * sizeof(Elf64_Shdr),
              size))
    return invalid("truncated or damaged: its section headers lie outside "
                   "its " +
                   Twine(size) + " bytes");
  auto section = [&](unsigned index) {
    Elf64_Shdr result;
    std::memcpy(&result, bytes.data() + header.e_shoff + index * sizeof result,
                sizeof result);
    return result;
  };
  // The symbol, among the dynamic symbols it defines.
  for (unsigned i = 0; i < header.e_shnum; ++i) {
    Elf64_Shdr symbols = section(i);
    if (symbols.sh_type != SHT_DYNSYM)
      continue;
    if (symbols.sh_link >= header.e_shnum ||
        symbols.sh_entsize != sizeof(Elf64_Sym) ||
        !inside(symbols.sh_offset, symbols.sh_size, size))
      return invalid("truncated or damaged: a bad dynamic symbol table");
    Elf64_Shdr names = section(symbols.sh_link);
    if (!inside(names.sh_offset, names.sh_size, size))
      return invalid("truncated or damaged: a bad dynamic string table");
    StringRef table = bytes.substr(names.sh_offset, names.sh_size);
    for (uint64_t at = 0; at + sizeof(Elf64_Sym) <= symbols.sh_size;
         at += sizeof(Elf64_Sym)) {
      Elf64_Sym entry;
      std::memcpy(&entry, bytes.data() + symbols.sh_offset + at, sizeof entry);
      if (entry.st_shndx == SHN_UNDEF || entry.st_name >= table.size())
        continue;
      StringRef name = table.substr(entry.st_name);
      if (name.substr(0, name.find('\0')) == symbol)
        return Error::success();
    }
  }
  return invalid("it lacks " + symbol);
}
