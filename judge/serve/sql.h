// SPDX-License-Identifier: MIT
#pragma once
// The little of a SQL database the store needs: one connection, parameterised statements (prepared
// once per connection and kept), rows of nullable byte strings, and plain statements for
// transactions and schema. One implementation per database (sqlite_db.cc, postgres_db.cc); what
// differs in the SQL text itself (placeholders, types, locking) is the store's dialect table
// (sql_store.cc), so the store's logic is written once.
//
// A connection is not thread-safe: one thread at a time (the store's pool hands each out under
// its own lock).
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "judge/serve/store.h"
#include "judge/util/expected.h"

namespace judge::serve::sql {

enum class Engine { kSqlite, kPostgres };

struct Blob {  // bytes bound as a blob (bytea), not as text that must be valid UTF-8
  std::string bytes;
};

// A statement's parameter: NULL, an integer, a real, text or a blob.
using Param = std::variant<std::nullptr_t, int64_t, double, std::string, Blob>;

// A column as text (integers in decimal, reals in shortest round-trip form) or, for a blob, its
// bytes; nullopt is SQL NULL.
using Row = std::vector<std::optional<std::string>>;

class Connection {
 public:
  virtual ~Connection() = default;
  virtual Engine engine() const = 0;
  // One statement with parameters written in the engine's own syntax (? or $1); every row it
  // returns (an UPDATE ... RETURNING returns one per changed row).
  virtual Expected<std::vector<Row>> Query(const std::string& sql, const std::vector<Param>& params) = 0;
  // Statements without parameters or results: BEGIN, COMMIT, the schema.
  virtual Status Exec(const std::string& sql) = 0;
};

// `path` is made when missing. WAL, synchronous=FULL, a busy timeout and foreign keys are set.
Expected<std::unique_ptr<Connection>> OpenSqlite(const std::string& path);
// `conninfo`: "host=... dbname=..." or "postgresql://...".
Expected<std::unique_ptr<Connection>> OpenPostgres(const std::string& conninfo);

// The conninfo with any password replaced by "***", for messages and logs.
std::string RedactConninfo(std::string_view conninfo);

using Connect = std::function<Expected<std::unique_ptr<Connection>>()>;
// The store over connections made by `connect` (up to `pool_size` at once, made as needed); the
// schema is created or checked with the first. `where` names the database in messages.
Expected<std::unique_ptr<Store>> OpenSqlStore(Connect connect, int pool_size, std::string where);

}  // namespace judge::serve::sql
