// SPDX-License-Identifier: MIT
#pragma once
// A PostgreSQL server of the test's own: initdb into a fresh temporary folder, the server on a
// Unix socket in that folder only (no TCP port, nothing shared with another test or the host's
// own server), user and database "judge" with trust authentication. Stopped (immediate shutdown)
// and removed with the object.
//
// PostgreSQL refuses to run as root; as root, the folder is given to the `postgres` system user
// and initdb and the server run as it. Start() returns why it cannot run (no binaries: install the
// Debian package `postgresql`), for the test to skip with. initdb's result is kept for the next
// server (InitDb).
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
    if (!bin)
      return "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb): install the Debian package "
             "`postgresql`";
    if (std::string why = MakeFolder(); !why.empty()) return why;
    const std::string data = dir_ + "/data";
    if (std::string why = InitDb(*bin, data); !why.empty()) return why;
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

  // Empties the test's database (its tables and sequences gone): the next test starts afresh
  // without the second a CREATE DATABASE takes. "" or why it failed.
  std::string Reset() const { return Run("judge", "DROP SCHEMA public CASCADE; CREATE SCHEMA public"); }

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
    if (pw == nullptr)
      return "running as root and there is no `postgres` user to run PostgreSQL as (install the Debian package "
             "`postgresql`)";
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

  std::string CreateDatabase(const std::string& name) const { return Run("postgres", "CREATE DATABASE " + name); }

  std::string Run(const std::string& db, const std::string& sql) const {
    PGconn* conn = PQconnectdb(Conninfo(db).c_str());
    std::string why;
    if (PQstatus(conn) != CONNECTION_OK) {
      why = std::string("cannot connect to the test server: ") + PQerrorMessage(conn);
    } else {
      PGresult* r = PQexec(conn, sql.c_str());
      if (PQresultStatus(r) != PGRES_COMMAND_OK) why = sql + " failed: " + PQerrorMessage(conn);
      PQclear(r);
    }
    PQfinish(conn);
    return why;
  }

  // initdb takes seconds, and ctest runs each test in a process (and server) of its own: the first
  // initdb's folder is kept in /tmp (per PostgreSQL version and user) and copied for the next.
  std::string InitDb(const std::filesystem::path& bin, const std::string& data) const {
    const std::string cache =
        "/tmp/judge-pg-initdb-" + bin.parent_path().filename().string() + "-uid" + std::to_string(::geteuid());
    if (std::filesystem::exists(cache + "/PG_VERSION")) {
      if (RunAndWait({"/bin/cp", "-a", cache, data}) == 0) return "";
      std::filesystem::remove_all(data);  // a cache that cannot be copied: make the folder afresh
    }
    if (int rc = RunAndWait({(bin / "initdb").string(), "-D", data, "-A", "trust", "-U", "judge", "-E", "UTF8",
                             "--no-sync", "--no-instructions"});
        rc != 0) {
      return "initdb failed (exit " + std::to_string(rc) + "): " + Log();
    }
    // Published whole or not at all (another test process may be doing the same).
    const std::string staging = cache + ".tmp" + std::to_string(::getpid());
    std::error_code ec;
    if (RunAndWait({"/bin/cp", "-a", data, staging}) != 0 || ::rename(staging.c_str(), cache.c_str()) != 0) {
      std::filesystem::remove_all(staging, ec);
    }
    return "";
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
};

}  // namespace judge::testing
