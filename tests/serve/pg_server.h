// SPDX-License-Identifier: MIT
#pragma once
// A PostgreSQL server of the test's own: initdb into a fresh temporary folder, the server on a
// Unix socket in that folder only (no TCP port, nothing shared with another test or the host's
// own server), user and database "judge" with trust authentication. Stopped (immediate shutdown)
// and removed with the object.
//
// PostgreSQL refuses to run as root; as root, the folder is given to the `postgres` system user
// and initdb and the server run as it. Start() returns why it cannot run (no binaries: install the
// Debian package `postgresql`), for the test to skip with.
#include <fcntl.h>
#include <grp.h>
#include <libpq-fe.h>
#include <pwd.h>
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace judge::testing {

class PgServer {
 public:
  PgServer() = default;
  PgServer(const PgServer&) = delete;
  PgServer& operator=(const PgServer&) = delete;
  ~PgServer() { Stop(); }

  // The newest /usr/lib/postgresql/<version>/bin with an initdb; nullopt when none is installed.
  static std::optional<std::filesystem::path> BinDir() {
    std::optional<std::filesystem::path> best;
    int best_version = -1;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator("/usr/lib/postgresql", ec)) {
      const int version = std::atoi(entry.path().filename().c_str());
      if (version > best_version && std::filesystem::exists(entry.path() / "bin" / "initdb")) {
        best_version = version;
        best = entry.path() / "bin";
      }
    }
    return best;
  }

  // Empty on success; otherwise why the server could not be started.
  std::string Start() {
    auto bin = BinDir();
    if (!bin) return "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb): install the Debian package `postgresql`";
    if (std::string why = MakeFolder(); !why.empty()) return why;
    const std::string data = dir_ + "/data";
    if (int rc = RunAndWait({(*bin / "initdb").string(), "-D", data, "-A", "trust", "-U", "judge", "-E", "UTF8",
                             "--no-sync", "--no-instructions"});
        rc != 0) {
      return "initdb failed (exit " + std::to_string(rc) + "): " + Log();
    }
    // fsync off: a test server's data need not survive a power loss, and each commit's flush
    // would cost the suite seconds. A committed row still survives the client's kill -9.
    server_ = Spawn({(*bin / "postgres").string(), "-D", data, "-k", dir_, "-c", "listen_addresses=", "-p",
                     std::to_string(kPort), "-c", "fsync=off", "-c", "max_connections=200"});
    if (server_ <= 0) return "cannot start postgres: " + Log();
    if (std::string why = AwaitReady(); !why.empty()) return why;
    return CreateDatabase("judge");
  }

  // libpq's connection string for the test's database.
  std::string conninfo() const { return Conninfo("judge"); }

  // A database of its own for one test, empty; its connection string, or nullopt (`why` says why).
  std::optional<std::string> NewDatabase(std::string* why) {
    const std::string name = "judge_" + std::to_string(++databases_);
    *why = CreateDatabase(name);
    if (!why->empty()) return std::nullopt;
    return Conninfo(name);
  }

 private:
  static constexpr int kPort = 5432;  // names the socket file in our own folder: no clash possible

  std::string Conninfo(const std::string& db) const {
    return "host=" + dir_ + " port=" + std::to_string(kPort) + " user=judge dbname=" + db;
  }

  std::string MakeFolder() {
    char templ[] = "/tmp/judge-pg-XXXXXX";
    if (::mkdtemp(templ) == nullptr) return "cannot make a temporary folder in /tmp";
    dir_ = templ;
    if (::geteuid() != 0) return "";
    const passwd* pw = ::getpwnam("postgres");
    if (pw == nullptr) return "running as root and there is no `postgres` user to run PostgreSQL as (install the Debian package `postgresql`)";
    uid_ = pw->pw_uid;
    gid_ = pw->pw_gid;
    if (::chown(dir_.c_str(), *uid_, *gid_) != 0) return "cannot give " + dir_ + " to the postgres user";
    return "";
  }

  // The child: output to the log, the postgres user's identity when we are root, then exec.
  pid_t Spawn(const std::vector<std::string>& argv) const {
    const std::string log = dir_ + "/log";
    std::vector<char*> args;  // made before fork: the child only calls what is safe after it
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    const pid_t pid = ::fork();
    if (pid != 0) return pid;
    const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (fd >= 0) {
      ::dup2(fd, 1);
      ::dup2(fd, 2);
    }
    if (uid_ && (::setgroups(0, nullptr) != 0 || ::setresgid(*gid_, *gid_, *gid_) != 0 ||
                 ::setresuid(*uid_, *uid_, *uid_) != 0)) {
      ::_exit(126);
    }
    if (::chdir(dir_.c_str()) != 0) ::_exit(126);
    ::execv(args[0], args.data());
    ::_exit(127);
  }

  int RunAndWait(const std::vector<std::string>& argv) const {
    const pid_t pid = Spawn(argv);
    int status = 0;
    if (pid < 0 || ::waitpid(pid, &status, 0) != pid) return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }

  std::string AwaitReady() {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (std::chrono::steady_clock::now() < deadline) {
      if (PQping(Conninfo("postgres").c_str()) == PQPING_OK) return "";
      int status = 0;
      if (::waitpid(server_, &status, WNOHANG) == server_) {
        server_ = 0;
        return "postgres exited while starting: " + Log();
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return "postgres did not accept connections within 30 s: " + Log();
  }

  std::string CreateDatabase(const std::string& name) const {
    PGconn* conn = PQconnectdb(Conninfo("postgres").c_str());
    std::string why;
    if (PQstatus(conn) != CONNECTION_OK) {
      why = std::string("cannot connect to the test server: ") + PQerrorMessage(conn);
    } else {
      PGresult* r = PQexec(conn, ("CREATE DATABASE " + name).c_str());
      if (PQresultStatus(r) != PGRES_COMMAND_OK) why = "CREATE DATABASE " + name + " failed: " + PQerrorMessage(conn);
      PQclear(r);
    }
    PQfinish(conn);
    return why;
  }

  std::string Log() const {
    std::ifstream in(dir_ + "/log");
    std::stringstream text;
    text << in.rdbuf();
    std::string s = text.str();
    return s.size() > 2000 ? s.substr(s.size() - 2000) : s;
  }

  void Stop() {
    if (server_ > 0) {
      ::kill(server_, SIGQUIT);  // immediate shutdown: nothing here needs a checkpoint
      int status = 0;
      ::waitpid(server_, &status, 0);
      server_ = 0;
    }
    if (!dir_.empty()) {
      std::error_code ec;
      std::filesystem::remove_all(dir_, ec);
    }
  }

  std::string dir_;
  std::optional<uid_t> uid_;
  std::optional<gid_t> gid_;
  pid_t server_ = 0;
  int databases_ = 0;
};

}  // namespace judge::testing
