// SPDX-License-Identifier: MIT
#pragma once
// The judge<->worker wire format (version kProtocolVersion): each message is
//   u32 header length | u64 blob length | header (JSON text) | blob (raw bytes), little endian.
// Every header carries "v": kProtocolVersion. The supervisor treats worker frames as untrusted: lengths are
// bounded and headers are validated before use.
#include <sys/types.h>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <utility>

#include "judge/util/expected.h"
#include "judge/util/json_fields.h"

namespace judge {

// 3: fresh timed calls; 4: `loaded` names the layers closed after dlopen; 5: buffer roles (inout,
// writable), float scalars, fetch/call_outputs for large fresh calls; 6: fetch keeps outputs in a
// slot, send_kept sends them after the case; progress "sampled" ends the timed calls.
inline constexpr int kProtocolVersion = 7;
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

// Incremental decoder for the supervisor's poll loop. A frame's blob is read into the string the
// Frame hands out, in place: outputs of hundreds of MB cross the pipe once, with no bounce buffer,
// no regrowth and no shift to the front. Its memory is reserved when the header says how much
// (within max_blob) and touched only as bytes arrive, so a worker that claims a large blob and
// sends nothing costs no memory.
class FrameDecoder {
 public:
  explicit FrameDecoder(uint64_t max_blob_bytes) : max_blob_(max_blob_bytes) {}
  // Appends bytes; returns an error once the stream is malformed (and stays broken).
  Status Feed(const char* data, size_t size);
  // Reads what `fd` has (one read(), at most up to the end of the blob being received) straight
  // into place: the number of bytes read (0 at the end of the stream), -1 with errno, or an error
  // once the stream is malformed.
  Expected<ssize_t> ReadFrom(int fd);
  bool HasFrame() const { return !frames_.empty(); }
  Frame Pop();
  void set_max_blob(uint64_t max_blob_bytes) { max_blob_ = max_blob_bytes; }

 private:
  // Where the next bytes go, and how many may go there.
  Expected<std::pair<char*, size_t>> Space();
  Status Commit(size_t n);
  Status Parse();
  uint64_t max_blob_;
  std::string buffer_;            // prefix and header bytes of the next frame (and what follows them)
  size_t filled_ = 0;             // of buffer_; the rest is room for the next read
  std::optional<Frame> partial_;  // header known, blob arriving into partial_->blob
  size_t blob_filled_ = 0, blob_len_ = 0;
  std::deque<Frame> frames_;
  bool broken_ = false;
};

}  // namespace judge
