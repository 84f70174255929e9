#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>
// Tries to reach the network (to fetch answers, or leak the tests).
extern "C" void solve(const float*, float* output, int) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(80);
  inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr);
  connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
  output[0] = 0;
}
