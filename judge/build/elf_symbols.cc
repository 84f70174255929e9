// SPDX-License-Identifier: MIT
#include "judge/build/elf_symbols.h"

#include <cxxabi.h>
#include <elf.h>

#include <cstdlib>
#include <cstring>
#include <memory>

#include "judge/util/fs.h"

namespace judge {
namespace {

template <typename T>
bool ReadAt(const std::string& data, uint64_t offset, T* out) {
  if (offset > data.size() || data.size() - offset < sizeof(T)) return false;
  std::memcpy(out, data.data() + offset, sizeof(T));
  return true;
}

Error NotElf(const std::string& path, const std::string& why) {
  return MakeError(ErrorCode::kBadInput, path + " is not a usable 64-bit ELF shared library (" + why + ")");
}

}  // namespace

Expected<std::vector<std::string>> ReadExportedFunctions(const std::string& so_path) {
  auto data = ReadFile(so_path);
  if (!data) return data.error();
  const std::string& d = *data;
  Elf64_Ehdr eh;
  if (!ReadAt(d, 0, &eh) || std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0) return NotElf(so_path, "bad magic");
  if (eh.e_ident[EI_CLASS] != ELFCLASS64) return NotElf(so_path, "not ELF64");
  std::vector<std::string> names;
  for (int i = 0; i < eh.e_shnum; ++i) {
    Elf64_Shdr sh, strtab;
    if (!ReadAt(d, eh.e_shoff + uint64_t(i) * eh.e_shentsize, &sh)) return NotElf(so_path, "truncated section table");
    if (sh.sh_type != SHT_DYNSYM) continue;
    if (!ReadAt(d, eh.e_shoff + uint64_t(sh.sh_link) * eh.e_shentsize, &strtab))
      return NotElf(so_path, "bad string table");
    for (uint64_t off = 0; sh.sh_entsize && off + sh.sh_entsize <= sh.sh_size; off += sh.sh_entsize) {
      Elf64_Sym sym;
      if (!ReadAt(d, sh.sh_offset + off, &sym)) return NotElf(so_path, "truncated symbol table");
      bool defined_function = ELF64_ST_TYPE(sym.st_info) == STT_FUNC && sym.st_shndx != SHN_UNDEF;
      bool exported = ELF64_ST_BIND(sym.st_info) != STB_LOCAL;
      if (!defined_function || !exported || sym.st_name >= strtab.sh_size) continue;
      uint64_t start = strtab.sh_offset + sym.st_name;
      if (start >= d.size()) continue;
      names.emplace_back(d.c_str() + start, strnlen(d.c_str() + start, d.size() - start));
    }
  }
  return names;
}

std::string Demangle(const std::string& symbol) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> out(abi::__cxa_demangle(symbol.c_str(), nullptr, nullptr, &status), std::free);
  return status == 0 && out ? std::string(out.get()) : symbol;
}

EntryPointCheck CheckEntryPoint(const std::vector<std::string>& exported, const std::string& name,
                                const std::string& expected_declaration) {
  EntryPointCheck check;
  std::string mangled;
  for (const auto& sym : exported) {
    if (sym == name) {
      check.found = true;
      return check;
    }
    std::string demangled = Demangle(sym);
    if (demangled.rfind(name + "(", 0) == 0) mangled = sym;
  }
  if (!mangled.empty()) {
    check.message = "the library exports a C++ function `" + Demangle(mangled) + "` (mangled as " + mangled +
                    "), but the judge calls the C symbol `" + name + "`. Declare it as\n    extern \"C\" " +
                    expected_declaration + "\nso its name is not mangled.";
  } else {
    check.message = "the library exports no function named `" + name + "`. Define\n    extern \"C\" " +
                    expected_declaration + "\n(at file scope, not static, not inside a namespace).";
  }
  return check;
}

}  // namespace judge
