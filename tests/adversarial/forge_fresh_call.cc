// Writes a well-formed frame of the current protocol (kProtocolVersion, protocol/frame.h) into the worker's result pipe (fd 4): a
// `progress` asking for the seeds of a fresh call, on a case that has none. Only a submission makes
// such a frame; it must be RE, not a judge error, and must not start the judge's clock.
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <string>

extern "C" void solve(const float* input, float* output, int N) {
  const std::string header = "{\"type\":\"progress\",\"v\":7,\"stage\":\"await_call\",\"calls\":0}";
  unsigned char frame[256];
  uint32_t header_length = uint32_t(header.size());
  uint64_t blob_length = 0;
  std::memcpy(frame, &header_length, 4);
  std::memcpy(frame + 4, &blob_length, 8);
  std::memcpy(frame + 12, header.data(), header.size());
  (void)!write(4, frame, 12 + header.size());
  double s = 0;
  for (int i = 0; i < N; ++i) s += input[i];
  output[0] = float(s);
}
