//===- DeviceImage.cpp - Validating and unpacking a linked vf image -------===//

#include "tilekit/VF/DeviceImage.h"

#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;
using namespace llvm::object;

static Error reject(const Twine &why) {
  return createStringError(inconvertibleErrorCode(),
                           "the linked image is not runnable: " + why);
}

Expected<std::string> tilekit::vf::extractText(MemoryBufferRef image) {
  Expected<std::unique_ptr<ObjectFile>> object =
      ObjectFile::createObjectFile(image);
  if (!object)
    return reject("not an object file (" + toString(object.takeError()) + ")");
  auto *elf = dyn_cast<ELF64LEObjectFile>(object->get());
  if (!elf)
    return reject("not a little-endian ELF64 file");
  const auto &header = elf->getELFFile().getHeader();
  if (header.e_type != ELF::ET_EXEC)
    return reject("not an executable (e_type " + Twine(header.e_type) +
                  ", not ET_EXEC): link it with ld.lld, not -r or -shared");
  Triple host(sys::getProcessTriple());
  if (elf->getArch() != host.getArch())
    return reject(
        "built for " + Twine(Triple::getArchTypeName(elf->getArch())) +
        ", but this machine is " + Triple::getArchTypeName(host.getArch()));

  std::optional<SectionRef> text;
  for (const SectionRef &section : elf->sections()) {
    Expected<StringRef> name = section.getName();
    if (!name)
      return reject("a section without a name (" + toString(name.takeError()) +
                    ")");
    ELFSectionRef elfSection(section);
    if ((elfSection.getType() == ELF::SHT_REL ||
         elfSection.getType() == ELF::SHT_RELA ||
         elfSection.getType() == ELF::SHT_RELR) &&
        section.getSize() != 0)
      return reject("it still has relocations (section " + *name +
                    "); the worker applies none");
    if (*name == ".text") {
      text = section;
      continue;
    }
    if ((elfSection.getFlags() & ELF::SHF_ALLOC) && section.getSize() != 0)
      return reject("section " + *name + " (" + Twine(section.getSize()) +
                    " bytes) would be loaded, but only .text is: the code "
                    "may hold no data (constant tables, globals) and call "
                    "nothing outside the image");
  }
  if (!text || text->getSize() == 0)
    return reject("it has no code (.text is missing or empty)");

  bool entryFound = false;
  for (const ELFSymbolRef &symbol : elf->symbols()) {
    Expected<StringRef> name = symbol.getName();
    Expected<uint32_t> flags = symbol.getFlags();
    if (!name || !flags)
      return reject("an unreadable symbol");
    if ((*flags & SymbolRef::SF_Undefined) && !name->empty())
      return reject("symbol '" + *name +
                    "' is undefined: the image must not call out of itself");
    if (*name != kEntrySymbol)
      continue;
    Expected<uint64_t> address = symbol.getAddress();
    Expected<section_iterator> section = symbol.getSection();
    if (!address || !section)
      return reject("kernel_entry is unreadable");
    if (*section != elf->section_end() && **section != *text)
      return reject("kernel_entry is not in .text");
    if (*address != text->getAddress())
      return reject("kernel_entry is at offset " +
                    Twine(*address - text->getAddress()) +
                    " of .text, but the worker starts at offset 0");
    entryFound = true;
  }
  if (!entryFound)
    return reject("it defines no kernel_entry");
  Expected<StringRef> contents = text->getContents();
  if (!contents)
    return reject(".text is unreadable (" + toString(contents.takeError()) +
                  ")");
  return contents->str();
}
