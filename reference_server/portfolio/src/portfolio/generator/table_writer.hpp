// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

#pragma once
// The table writer, on agentio::sqlite: one Table per SQL table knows its
// schema (CREATE TABLE), prepares its INSERT and buffers one row by column
// name, checking every value against the column's type. SQLite errors become
// std::runtime_error with SQLite's message.
#include "portfolio/generator/calendar.hpp"
#include "portfolio/generator/money.hpp"

#include <agentio/sqlite.hpp>

#include <cstddef>
#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <variant>
#include <vector>

namespace portfolio::generator {

/// Runs SQL that returns no rows; throws "SQLite error (<the SQL, cut at 80 bytes>): <SQLite's message>".
void execute(agentio::sqlite::connection& db, std::string const& sql);

enum class Ty : char
{
    I,
    R,
    T
};
struct Col
{
    std::string name;
    Ty ty;
    bool not_null;
};
using Value = std::variant<std::monostate, i64, double, std::string>;

template<class T>
struct is_optional : std::false_type
{
};
template<class T>
struct is_optional<std::optional<T>> : std::true_type
{
};

/// One table: schema + prepared INSERT + a named-column row buffer.
/// Every column must be set (possibly to NULL) before insert(); ids are 1..n in insertion order.
class Table
{
public:
    /// `spec`: one "name:T|I|R" per column after `id`, with '!' for NOT NULL ("nombre:T!").
    Table(std::string name, std::initializer_list<char const*> spec);
    std::string const& name() const { return name_; }
    std::vector<Col> const& cols() const { return cols_; }
    bool has_portfolio_id() const { return cols_.size() > 1 && cols_[1].name == "portfolio_id"; }
    i64 rows() const { return next_id_ - 1; }

    std::string create_sql() const;
    /// Prepares the INSERT; `db` must outlive the table's last insert().
    void prepare(agentio::sqlite::connection& db);

    template<class T>
    Table& set(std::string_view col, T const& v)
    {
        if constexpr(std::is_same_v<T, std::nullopt_t>)
        {
            put(col, Value{});
        }
        else if constexpr(is_optional<T>::value)
        {
            if(v)
                set(col, *v);
            else
                put(col, Value{});
        }
        else if constexpr(std::is_same_v<T, bool>)
        {
            put(col, Value{static_cast<i64>(v ? 1 : 0)});
        }
        else if constexpr(std::is_integral_v<T>)
        {
            put(col, Value{static_cast<i64>(v)});
        }
        else if constexpr(std::is_floating_point_v<T>)
        {
            put(col, Value{static_cast<double>(v)});
        }
        else if constexpr(std::is_same_v<T, Date>)
        {
            put(col, Value{iso(v)});
        }
        else
        {
            put(col, Value{std::string(v)});
        }
        return *this;
    }
    Table& money(std::string_view col, OptMoney cents)
    {
        if(cents)
            put(col, Value{static_cast<double>(*cents) / 100.0});
        else
            put(col, Value{});
        return *this;
    }
    /// Inserts the row set so far and clears it; returns its id.
    i64 insert();

private:
    void put(std::string_view col, Value v);

    std::string name_;
    std::vector<Col> cols_;
    struct SvHash
    {
        using is_transparent = void;
        std::size_t operator()(std::string_view v) const noexcept { return std::hash<std::string_view>{}(v); }
    };
    std::unordered_map<std::string, int, SvHash, std::equal_to<>> index_;
    std::vector<Value> vals_;
    std::vector<char> set_;
    agentio::sqlite::connection* db_ = nullptr;
    agentio::sqlite::statement stmt_;
    i64 next_id_ = 1;
};

} // namespace portfolio::generator
