// SPDX-License-Identifier: MIT
// sql::Connection over SQLite: one sqlite3 handle, its prepared statements kept by SQL text.
#include <sqlite3.h>

#include <charconv>
#include <string>
#include <unordered_map>

#include "judge/serve/sql.h"

namespace judge::serve::sql {
namespace {

// How long a writer waits for another connection's write transaction before failing: longer than
// any of the store's transactions, which are a few statements each.
constexpr int kBusyTimeoutMs = 30000;

std::string RealText(double v) {
  char buf[32];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return ec == std::errc() ? std::string(buf, end) : std::to_string(v);
}

class SqliteConnection final : public Connection {
 public:
  SqliteConnection(sqlite3* db, std::string path) : db_(db), path_(std::move(path)) {}
  ~SqliteConnection() override {
    for (auto& [sql, stmt] : statements_) sqlite3_finalize(stmt);
    sqlite3_close(db_);
  }
  Engine engine() const override { return Engine::kSqlite; }

  Status Exec(const std::string& sql) override {
    char* message = nullptr;
    if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &message) == SQLITE_OK) return Status::Ok();
    std::string text = message ? message : sqlite3_errmsg(db_);
    sqlite3_free(message);
    return Failure(text, sql);
  }

  Expected<std::vector<Row>> Query(const std::string& sql, const std::vector<Param>& params) override {
    auto stmt = Prepare(sql);
    if (!stmt.ok()) return stmt.error();
    sqlite3_stmt* s = *stmt;
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    for (size_t i = 0; i < params.size(); ++i) {
      if (Bind(s, static_cast<int>(i) + 1, params[i]) != SQLITE_OK) return Failure(sqlite3_errmsg(db_), sql);
    }
    std::vector<Row> rows;
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) rows.push_back(ReadRow(s));
    // Reset at once: a statement left stepping would keep its read transaction open.
    sqlite3_reset(s);
    if (rc != SQLITE_DONE) return Failure(sqlite3_errmsg(db_), sql);
    return rows;
  }

 private:
  Error Failure(const std::string& message, const std::string& sql) const {
    return MakeError(ErrorCode::kIo, "SQLite database " + path_ + ": " + message + " (in: " + sql.substr(0, 80) + ")");
  }

  Expected<sqlite3_stmt*> Prepare(const std::string& sql) {
    if (auto it = statements_.find(sql); it != statements_.end()) return it->second;
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v3(db_, sql.c_str(), static_cast<int>(sql.size()), SQLITE_PREPARE_PERSISTENT, &stmt, nullptr) !=
        SQLITE_OK) {
      return Failure(sqlite3_errmsg(db_), sql);
    }
    statements_.emplace(sql, stmt);
    return stmt;
  }

  static int Bind(sqlite3_stmt* s, int index, const Param& param) {
    struct Binder {
      sqlite3_stmt* s;
      int i;
      int operator()(std::nullptr_t) const { return sqlite3_bind_null(s, i); }
      int operator()(int64_t v) const { return sqlite3_bind_int64(s, i, v); }
      int operator()(double v) const { return sqlite3_bind_double(s, i, v); }
      int operator()(const std::string& v) const {
        return sqlite3_bind_text64(s, i, v.data(), v.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
      }
      int operator()(const Blob& v) const {
        return sqlite3_bind_blob64(s, i, v.bytes.data(), v.bytes.size(), SQLITE_TRANSIENT);
      }
    };
    return std::visit(Binder{s, index}, param);
  }

  static Row ReadRow(sqlite3_stmt* s) {
    Row row;
    const int n = sqlite3_column_count(s);
    for (int c = 0; c < n; ++c) {
      switch (sqlite3_column_type(s, c)) {
        case SQLITE_NULL: row.emplace_back(); break;
        // SQLite's own text of a real keeps 15 digits; the shortest round-trip form keeps them all.
        case SQLITE_FLOAT: row.emplace_back(RealText(sqlite3_column_double(s, c))); break;
        case SQLITE_BLOB: {
          const void* p = sqlite3_column_blob(s, c);
          row.emplace_back(std::string(static_cast<const char*>(p), sqlite3_column_bytes(s, c)));
          break;
        }
        default: {
          const unsigned char* p = sqlite3_column_text(s, c);
          row.emplace_back(std::string(reinterpret_cast<const char*>(p), sqlite3_column_bytes(s, c)));
        }
      }
    }
    return row;
  }

  sqlite3* db_;
  std::string path_;
  std::unordered_map<std::string, sqlite3_stmt*> statements_;
};

}  // namespace

Expected<std::unique_ptr<Connection>> OpenSqlite(const std::string& path) {
  sqlite3* db = nullptr;
  // NOMUTEX: the store's pool already gives a connection to one thread at a time.
  const int rc =
      sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr);
  if (rc != SQLITE_OK) {
    std::string message = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    sqlite3_close(db);
    return MakeError(ErrorCode::kIo, "cannot open SQLite database " + path + ": " + message +
                                         " (check that its folder exists and is writable by this user)");
  }
  sqlite3_extended_result_codes(db, 1);
  auto connection = std::make_unique<SqliteConnection>(db, path);
  // WAL: readers never wait for the writer. synchronous=FULL: a commit is on disk (WAL fsynced)
  // before Enqueue returns, so an id handed out survives kill -9 and power loss alike.
  JUDGE_TRY(connection->Exec("PRAGMA busy_timeout=" + std::to_string(kBusyTimeoutMs) +
                             "; PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON;"));
  return std::unique_ptr<Connection>(std::move(connection));
}

}  // namespace judge::serve::sql
