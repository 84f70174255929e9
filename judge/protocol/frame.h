// SPDX-License-Identifier: MIT
#pragma once
// The judge<->worker wire format (version kProtocolVersion): each message is
//   u32 header length | u64 blob length | header (JSON text) | blob (raw bytes), little endian.
// Every header carries "v": kProtocolVersion. The supervisor treats worker frames as untrusted: lengths are
// bounded and headers are validated before use.
#include <cstdint>
#include <deque>
#include <optional>
#include <string>

#include "judge/util/expected.h"
#include "judge/util/json_fields.h"

namespace judge {

// 3: fresh timed calls; 4: `loaded` names the layers closed after dlopen; 5: buffer roles (inout,
// writable), float scalars, fetch/call_outputs for large fresh calls.
inline constexpr int kProtocolVersion = 5;
inline constexpr uint32_t kMaxHeaderBytes = 1 << 20;

struct Frame {
  Json header;
  std::string blob;
};

std::string EncodeFrame(const Json& header, const std::string& blob = "");
// Blocking write of a whole frame (EINTR-safe). A header over kMaxHeaderBytes is not sent: the
// reader would refuse it, so it is the writer's error (kInternal), said here.
Status WriteFrame(int fd, const Json& header, const std::string& blob = "");
// Blocking read of one frame; nullopt at a clean end of stream (before a frame starts), an error
// on a malformed or cut frame.
Expected<std::optional<Frame>> ReadFrame(int fd, uint64_t max_blob_bytes);

// Incremental decoder for the supervisor's poll loop.
class FrameDecoder {
 public:
  explicit FrameDecoder(uint64_t max_blob_bytes) : max_blob_(max_blob_bytes) {}
  // Appends bytes; returns an error once the stream is malformed (and stays broken).
  Status Feed(const char* data, size_t size);
  bool HasFrame() const { return !frames_.empty(); }
  Frame Pop();
  void set_max_blob(uint64_t max_blob_bytes) { max_blob_ = max_blob_bytes; }

 private:
  Status Parse();
  uint64_t max_blob_;
  std::string buffer_;
  std::deque<Frame> frames_;
  bool broken_ = false;
};

}  // namespace judge
