// SPDX-License-Identifier: MIT
// sql::Connection over PostgreSQL (libpq): statements prepared once per connection under a name
// of their own; parameters sent as text, blobs as binary; results read as text, bytea decoded.
#include <libpq-fe.h>

#include <charconv>
#include <regex>
#include <string>
#include <unordered_map>

#include "judge/serve/sql.h"

namespace judge::serve::sql {
namespace {

constexpr Oid kByteaOid = 17;  // pg_type.oid of bytea (catalog/pg_type.dat); stable across versions

struct ResultDeleter {
  void operator()(PGresult* r) const { PQclear(r); }
};
using ResultPtr = std::unique_ptr<PGresult, ResultDeleter>;

std::string RealText(double v) {
  char buf[32];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return ec == std::errc() ? std::string(buf, end) : std::to_string(v);
}

// bytea's text output: "\x" and two hex digits a byte (bytea_output=hex, the default since 9.0).
std::string DecodeBytea(const char* text, int length) {
  auto nibble = [](char c) { return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10; };
  std::string bytes;
  if (length < 2 || text[0] != '\\' || text[1] != 'x') return std::string(text, length);
  bytes.reserve((length - 2) / 2);
  for (int i = 2; i + 1 < length; i += 2)
    bytes.push_back(static_cast<char>(nibble(text[i]) << 4 | nibble(text[i + 1])));
  return bytes;
}

// A parameter's wire form: text (format 0) or, for a blob, its bytes (format 1).
struct WireParam {
  std::optional<std::string> value;
  int format = 0;
};

WireParam ToWire(const Param& param) {
  struct Visitor {
    WireParam operator()(std::nullptr_t) const { return {}; }
    WireParam operator()(int64_t v) const { return {std::to_string(v)}; }
    WireParam operator()(double v) const { return {RealText(v)}; }
    WireParam operator()(const std::string& v) const { return {v}; }
    WireParam operator()(const Blob& v) const { return {v.bytes, 1}; }
  };
  return std::visit(Visitor{}, param);
}

class PostgresConnection final : public Connection {
 public:
  PostgresConnection(PGconn* conn, std::string where) : conn_(conn), where_(std::move(where)) {}
  ~PostgresConnection() override { PQfinish(conn_); }
  Engine engine() const override { return Engine::kPostgres; }

  Status Exec(const std::string& sql) override {
    ResultPtr result(PQexec(conn_, sql.c_str()));
    return Check(result.get(), sql);
  }

  Expected<std::vector<Row>> Query(const std::string& sql, const std::vector<Param>& params) override {
    auto name = Prepare(sql);
    if (!name.ok()) return name.error();
    std::vector<WireParam> wire;
    std::vector<const char*> values;
    std::vector<int> lengths, formats;
    for (const Param& p : params) wire.push_back(ToWire(p));
    for (const WireParam& w : wire) {
      values.push_back(w.value ? w.value->data() : nullptr);
      lengths.push_back(w.value ? static_cast<int>(w.value->size()) : 0);
      formats.push_back(w.format);
    }
    ResultPtr result(PQexecPrepared(conn_, name->c_str(), static_cast<int>(params.size()), values.data(),
                                    lengths.data(), formats.data(), 0));
    JUDGE_TRY(Check(result.get(), sql));
    return ReadRows(result.get());
  }

 private:
  Status Check(PGresult* result, const std::string& sql) {
    const ExecStatusType status = PQresultStatus(result);
    if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) return Status::Ok();
    std::string message = result ? PQresultErrorMessage(result) : PQerrorMessage(conn_);
    if (PQstatus(conn_) == CONNECTION_BAD) Reconnect();
    while (!message.empty() && message.back() == '\n') message.pop_back();
    return MakeError(ErrorCode::kIo, "PostgreSQL " + where_ + ": " + message + " (in: " + sql.substr(0, 80) + ")");
  }

  // A server restart breaks the connection; the next statement gets a fresh one (this one failed).
  void Reconnect() {
    PQreset(conn_);
    prepared_.clear();  // prepared statements belong to the old session
  }

  Expected<std::string> Prepare(const std::string& sql) {
    if (auto it = prepared_.find(sql); it != prepared_.end()) return it->second;
    std::string name = "s" + std::to_string(prepared_.size());
    ResultPtr result(PQprepare(conn_, name.c_str(), sql.c_str(), 0, nullptr));
    JUDGE_TRY(Check(result.get(), sql));
    prepared_.emplace(sql, name);
    return name;
  }

  static std::vector<Row> ReadRows(PGresult* result) {
    std::vector<Row> rows;
    const int n = PQntuples(result), columns = PQnfields(result);
    for (int r = 0; r < n; ++r) {
      Row row;
      for (int c = 0; c < columns; ++c) {
        if (PQgetisnull(result, r, c)) {
          row.emplace_back();
        } else if (PQftype(result, c) == kByteaOid) {
          row.emplace_back(DecodeBytea(PQgetvalue(result, r, c), PQgetlength(result, r, c)));
        } else {
          row.emplace_back(std::string(PQgetvalue(result, r, c), PQgetlength(result, r, c)));
        }
      }
      rows.push_back(std::move(row));
    }
    return rows;
  }

  PGconn* conn_;
  std::string where_;
  std::unordered_map<std::string, std::string> prepared_;
};

// The server's notices ("relation already exists, skipping") are for a console, not our stderr.
void IgnoreNotice(void*, const char*) {}

}  // namespace

std::string RedactConninfo(std::string_view conninfo) {
  static const std::regex kKeyword(R"((password\s*=\s*)('[^']*'|\S+))", std::regex::icase);
  static const std::regex kUri(R"(^(postgres(?:ql)?://[^:/@]*:)[^@]*@)", std::regex::icase);
  std::string text = std::regex_replace(std::string(conninfo), kKeyword, "$1***");
  return std::regex_replace(text, kUri, "$1***@");
}

Expected<std::unique_ptr<Connection>> OpenPostgres(const std::string& conninfo) {
  const std::string where = "'" + RedactConninfo(conninfo) + "'";
  PGconn* conn = PQconnectdb(conninfo.c_str());
  if (conn == nullptr || PQstatus(conn) != CONNECTION_OK) {
    std::string message = conn ? PQerrorMessage(conn) : "out of memory";
    PQfinish(conn);
    while (!message.empty() && message.back() == '\n') message.pop_back();
    return MakeError(
        ErrorCode::kIo,
        "cannot connect to PostgreSQL " + where + ": " + message +
            " (check --database or $JUDGE_DATABASE_URL, that the server runs and that this user may log in)");
  }
  PQsetNoticeProcessor(conn, IgnoreNotice, nullptr);
  return std::unique_ptr<Connection>(std::make_unique<PostgresConnection>(conn, where));
}

}  // namespace judge::serve::sql
