// SPDX-License-Identifier: MIT
#pragma once
// SHA-256 for content addressing (compile cache keys, submission identity in reports).
#include <cstdint>
#include <string>
#include <string_view>

namespace judge {

class Sha256 {
 public:
  Sha256();
  void Update(std::string_view data);
  void Update(const void* data, size_t size);
  std::string HexDigest();  // finalizes; the object is spent afterwards

 private:
  void Block(const uint8_t* p);
  uint32_t h_[8];
  uint8_t buf_[64];
  size_t buf_len_ = 0;
  uint64_t total_ = 0;
};

std::string Sha256Hex(std::string_view data);

}  // namespace judge
