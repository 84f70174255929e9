// SPDX-License-Identifier: MIT
#include "judge/protocol/frame.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "judge/util/uninitialized.h"

namespace judge {
namespace {

constexpr size_t kPrefix = 12;

void PutLe(std::string& out, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(char((v >> (8 * i)) & 0xff));
}

uint64_t GetLe(const char* p, int bytes) {
  uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v |= uint64_t(uint8_t(p[i])) << (8 * i);
  return v;
}

Status CheckLengths(uint64_t header_len, uint64_t blob_len, uint64_t max_blob) {
  if (header_len == 0 || header_len > kMaxHeaderBytes)
    return MakeError(ErrorCode::kProtocol, "frame header length " + std::to_string(header_len) + " out of range");
  if (blob_len > max_blob)
    return MakeError(ErrorCode::kProtocol,
                     "frame blob of " + std::to_string(blob_len) + " bytes exceeds " + std::to_string(max_blob));
  return Status::Ok();
}

Expected<Json> ParseHeader(const std::string& text) {
  Json j = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) return MakeError(ErrorCode::kProtocol, "frame header is not a JSON object");
  // The worker's frames are untrusted: a "v" of the wrong type is an error, never an exception.
  if (!j.contains("v") || !j["v"].is_number_integer() || j["v"].get<int64_t>() != kProtocolVersion)
    return MakeError(ErrorCode::kProtocol,
                     "frame has protocol version " + (j.contains("v") ? j["v"].dump() : std::string("(none)")));
  if (!j.contains("type") || !j["type"].is_string())
    return MakeError(ErrorCode::kProtocol, "frame header has no \"type\"");
  return j;
}

Status ReadExactly(int fd, char* p, size_t n) {
  while (n > 0) {
    ssize_t r = ::read(fd, p, n);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return MakeError(ErrorCode::kProtocol, r == 0 ? "end of stream" : std::strerror(errno));
    p += r;
    n -= size_t(r);
  }
  return Status::Ok();
}

}  // namespace

std::string EncodeFrame(const Json& header, const std::string& blob) {
  Json h = header;
  h["v"] = kProtocolVersion;
  // A header's text may be a submission's (an exception's message): what is not UTF-8 becomes
  // U+FFFD, util/utf8's rule (nlohmann's replacing dump follows it: util_test holds the two
  // together), instead of aborting the worker and losing the message.
  std::string text = h.dump(-1, ' ', false, Json::error_handler_t::replace);
  std::string out;
  out.reserve(kPrefix + text.size() + blob.size());
  PutLe(out, text.size(), 4);
  PutLe(out, blob.size(), 8);
  out += text;
  out += blob;  // one copy of a blob of hundreds of MB, not three
  return out;
}

Status WriteFrame(int fd, const Json& header, const std::string& blob) {
  // The prefix and header as EncodeFrame makes them; the blob is written from where it is.
  std::string head = EncodeFrame(header, "");
  if (uint64_t header_len = GetLe(head.data(), 4); header_len > kMaxHeaderBytes)
    return MakeError(ErrorCode::kInternal, "a " + std::string(header.value("type", "")) + " message's header of " +
                                               std::to_string(header_len) + " bytes is over the protocol's limit of " +
                                               std::to_string(kMaxHeaderBytes) + " (kMaxHeaderBytes)");
  std::string blob_len;
  PutLe(blob_len, blob.size(), 8);
  head.replace(4, 8, blob_len);
  for (const std::string* part : {static_cast<const std::string*>(&head), &blob}) {
    const char* p = part->data();
    size_t left = part->size();
    while (left > 0) {
      ssize_t w = ::write(fd, p, left);
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) return MakeError(ErrorCode::kProtocol, std::string("write: ") + std::strerror(errno));
      p += w;
      left -= size_t(w);
    }
  }
  return Status::Ok();
}

Expected<std::optional<Frame>> ReadFrame(int fd, uint64_t max_blob_bytes) {
  char prefix[kPrefix];
  ssize_t first = 0;
  do first = ::read(fd, prefix, 1);
  while (first < 0 && errno == EINTR);
  if (first == 0) return std::optional<Frame>();
  if (first < 0) return MakeError(ErrorCode::kProtocol, std::strerror(errno));
  JUDGE_TRY(ReadExactly(fd, prefix + 1, kPrefix - 1));
  uint64_t header_len = GetLe(prefix, 4), blob_len = GetLe(prefix + 4, 8);
  JUDGE_TRY(CheckLengths(header_len, blob_len, max_blob_bytes));
  std::string header(header_len, '\0');
  JUDGE_TRY(ReadExactly(fd, header.data(), header_len));
  Frame f;
  f.blob.resize(blob_len);
  JUDGE_TRY(ReadExactly(fd, f.blob.data(), blob_len));
  auto parsed = ParseHeader(header);
  if (!parsed) return parsed.error();
  f.header = std::move(*parsed);
  return std::optional<Frame>(std::move(f));
}

namespace {
// Room kept for a read between blobs (headers, small frames), and the step by which a large
// blob's reserved memory is made usable (the zeroing resize() does is then spread over the reads).
constexpr size_t kReadRoom = 64 * 1024;
constexpr size_t kBlobStep = 8 << 20;
}  // namespace

Expected<std::pair<char*, size_t>> FrameDecoder::Space() {
  if (broken_) return MakeError(ErrorCode::kProtocol, "stream already malformed");
  if (partial_) {
    std::string& blob = partial_->blob;
    if (blob.size() == blob_filled_) blob.resize(std::min(blob_len_, blob_filled_ + kBlobStep));  // within capacity
    return std::pair{blob.data() + blob_filled_, blob.size() - blob_filled_};
  }
  if (buffer_.size() < filled_ + kReadRoom) buffer_.resize(filled_ + kReadRoom);
  return std::pair{buffer_.data() + filled_, buffer_.size() - filled_};
}

Status FrameDecoder::Commit(size_t n) {
  if (!partial_) {
    filled_ += n;
    auto st = Parse();
    if (!st) broken_ = true;
    return st;
  }
  blob_filled_ += n;
  if (blob_filled_ == blob_len_) {
    frames_.push_back(std::move(*partial_));
    partial_.reset();
  }
  return Status::Ok();
}

Status FrameDecoder::Feed(const char* data, size_t size) {
  if (broken_) return MakeError(ErrorCode::kProtocol, "stream already malformed");
  while (size > 0) {
    auto space = Space();
    if (!space) return space.error();
    const size_t n = std::min(size, space->second);
    std::memcpy(space->first, data, n);
    JUDGE_TRY(Commit(n));
    data += n;
    size -= n;
  }
  return Status::Ok();
}

Expected<ssize_t> FrameDecoder::ReadFrom(int fd) {
  auto space = Space();
  if (!space) return space.error();
  ssize_t n = ::read(fd, space->first, space->second);
  if (n > 0) JUDGE_TRY(Commit(size_t(n)));
  return n;
}

// Takes whole frames, and the start of a frame whose header is in, off the front of buffer_.
Status FrameDecoder::Parse() {
  size_t at = 0;
  while (filled_ - at >= kPrefix) {
    const char* p = buffer_.data() + at;
    uint64_t header_len = GetLe(p, 4), blob_len = GetLe(p + 4, 8);
    JUDGE_TRY(CheckLengths(header_len, blob_len, max_blob_));
    if (filled_ - at < kPrefix + header_len) break;
    auto header = ParseHeader(std::string(p + kPrefix, header_len));
    if (!header) return header.error();
    at += kPrefix + header_len;
    const size_t here = std::min<size_t>(blob_len, filled_ - at);
    Frame f{std::move(*header), std::string()};
    if (here == blob_len) {
      f.blob.assign(buffer_.data() + at, here);
      at += here;
      frames_.push_back(std::move(f));
      continue;
    }
    try {
      f.blob.reserve(blob_len);  // address space only: pages are touched as the bytes arrive
      if (blob_len >= kHugeBufferBytes) AdviseHugePages(f.blob.data(), blob_len);
    } catch (const std::exception&) {
      return MakeError(ErrorCode::kProtocol, "cannot hold a frame blob of " + std::to_string(blob_len) + " bytes");
    }
    f.blob.assign(buffer_.data() + at, here);
    at += here;
    partial_ = std::move(f);
    blob_filled_ = here;
    blob_len_ = blob_len;
    break;
  }
  buffer_.erase(0, at);
  filled_ -= at;
  return Status::Ok();
}

Frame FrameDecoder::Pop() {
  Frame f = std::move(frames_.front());
  frames_.pop_front();
  return f;
}

}  // namespace judge
