// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

#pragma once
// The table writer: the database connection, and one Table per SQL table that
// knows its schema (CREATE TABLE), prepares its INSERT and buffers one row by
// column name, checking every value against the column's type.
#include "portfolio/generator/calendar.hpp"
#include "portfolio/generator/money.hpp"
#include "portfolio/generator/text.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <cstddef>
#include <functional>
#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

namespace portfolio::generator {

class Db {
public:
    Db() = default;
    Db(Db const&) = delete;
    Db& operator=(Db const&) = delete;
    ~Db() { close_noexcept(); }
    void open(std::string const& file) {
        int const rc = sqlite3_open_v2(file.c_str(), &h_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
        if (rc != SQLITE_OK) {
            std::string msg = h_ ? sqlite3_errmsg(h_) : sqlite3_errstr(rc);
            close_noexcept();
            throw std::runtime_error("cannot create database file '" + file + "': " + msg);
        }
    }
    void exec(std::string const& sql) {
        char* err = nullptr;
        if (sqlite3_exec(h_, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
            std::string msg = err ? err : sqlite3_errmsg(h_);
            sqlite3_free(err);
            throw std::runtime_error("SQLite error (" + truncate_utf8(sql, 80) + "): " + msg);
        }
    }
    void close() {
        if (h_ && sqlite3_close(h_) != SQLITE_OK) {
            std::string msg = sqlite3_errmsg(h_);
            sqlite3_close_v2(h_);
            h_ = nullptr;
            throw std::runtime_error("SQLite error closing database: " + msg);
        }
        h_ = nullptr;
    }
    sqlite3* get() const { return h_; }

private:
    void close_noexcept() {
        if (h_) sqlite3_close_v2(h_);
        h_ = nullptr;
    }
    sqlite3* h_ = nullptr;
};

class Stmt {
public:
    Stmt() = default;
    Stmt(sqlite3* db, std::string const& sql) {
        if (sqlite3_prepare_v2(db, sql.c_str(), -1, &h_, nullptr) != SQLITE_OK)
            throw std::runtime_error("SQLite error preparing (" + truncate_utf8(sql, 80) + "): " + sqlite3_errmsg(db));
    }
    Stmt(Stmt const&) = delete;
    Stmt& operator=(Stmt const&) = delete;
    Stmt(Stmt&& o) noexcept : h_(std::exchange(o.h_, nullptr)) {}
    Stmt& operator=(Stmt&& o) noexcept {
        std::swap(h_, o.h_);
        return *this;
    }
    ~Stmt() { sqlite3_finalize(h_); }
    sqlite3_stmt* get() const { return h_; }

private:
    sqlite3_stmt* h_ = nullptr;
};

enum class Ty : char { I, R, T };
struct Col {
    std::string name;
    Ty ty;
    bool not_null;
};
using Value = std::variant<std::monostate, i64, double, std::string>;

template <class T>
struct is_optional : std::false_type {};
template <class T>
struct is_optional<std::optional<T>> : std::true_type {};

/// One table: schema + prepared INSERT + a named-column row buffer.
/// Every column must be set (possibly to NULL) before insert(); ids are 1..n in insertion order.
class Table {
public:
    Table(std::string name, std::initializer_list<char const*> spec) : name_(std::move(name)) {
        cols_.push_back({"id", Ty::I, true});
        for (char const* s : spec) {
            std::string_view v(s);
            auto const colon = v.find(':');
            Col c{std::string(v.substr(0, colon)), Ty::T, false};
            std::string_view t = v.substr(colon + 1);
            if (!t.empty() && t.back() == '!') {
                c.not_null = true;
                t.remove_suffix(1);
            }
            c.ty = t == "I" ? Ty::I : t == "R" ? Ty::R : Ty::T;
            cols_.push_back(std::move(c));
        }
        for (std::size_t i = 0; i < cols_.size(); ++i) index_.emplace(cols_[i].name, static_cast<int>(i));
        vals_.resize(cols_.size());
        set_.assign(cols_.size(), 0);
    }
    std::string const& name() const { return name_; }
    std::vector<Col> const& cols() const { return cols_; }
    bool has_portfolio_id() const { return cols_.size() > 1 && cols_[1].name == "portfolio_id"; }
    i64 rows() const { return next_id_ - 1; }

    std::string create_sql() const {
        std::string s = "CREATE TABLE " + name_ + " (\n  id INTEGER PRIMARY KEY";
        for (std::size_t i = 1; i < cols_.size(); ++i) {
            s += ",\n  " + cols_[i].name + (cols_[i].ty == Ty::I ? " INTEGER" : cols_[i].ty == Ty::R ? " REAL" : " TEXT");
            if (cols_[i].not_null) s += " NOT NULL";
        }
        return s + "\n)";
    }
    void prepare(sqlite3* db) {
        db_ = db;
        std::string s = "INSERT INTO " + name_ + " VALUES (";
        for (std::size_t i = 0; i < cols_.size(); ++i) s += i ? ",?" : "?";
        s += ")";
        stmt_ = Stmt(db, s);
    }

    template <class T>
    Table& set(std::string_view col, T const& v) {
        if constexpr (std::is_same_v<T, std::nullopt_t>) {
            put(col, Value{});
        } else if constexpr (is_optional<T>::value) {
            if (v) set(col, *v);
            else put(col, Value{});
        } else if constexpr (std::is_same_v<T, bool>) {
            put(col, Value{static_cast<i64>(v ? 1 : 0)});
        } else if constexpr (std::is_integral_v<T>) {
            put(col, Value{static_cast<i64>(v)});
        } else if constexpr (std::is_floating_point_v<T>) {
            put(col, Value{static_cast<double>(v)});
        } else if constexpr (std::is_same_v<T, Date>) {
            put(col, Value{iso(v)});
        } else {
            put(col, Value{std::string(v)});
        }
        return *this;
    }
    Table& money(std::string_view col, OptMoney cents) {
        if (cents) put(col, Value{static_cast<double>(*cents) / 100.0});
        else put(col, Value{});
        return *this;
    }
    i64 insert() {
        sqlite3_stmt* st = stmt_.get();
        i64 const id = next_id_;
        vals_[0] = id;
        set_[0] = 1;
        for (std::size_t i = 0; i < cols_.size(); ++i) {
            if (!set_[i]) throw std::runtime_error("internal error: column " + name_ + "." + cols_[i].name + " not set");
            int const p = static_cast<int>(i) + 1;
            int rc = SQLITE_OK;
            Value const& v = vals_[i];
            if (std::holds_alternative<std::monostate>(v)) rc = sqlite3_bind_null(st, p);
            else if (auto const* iv = std::get_if<i64>(&v)) rc = sqlite3_bind_int64(st, p, *iv);
            else if (auto const* dv = std::get_if<double>(&v)) rc = sqlite3_bind_double(st, p, *dv);
            else {
                auto const& sv = std::get<std::string>(v);
                rc = sqlite3_bind_text(st, p, sv.data(), static_cast<int>(sv.size()), SQLITE_TRANSIENT);
            }
            if (rc != SQLITE_OK) throw std::runtime_error("SQLite bind error on " + name_ + ": " + sqlite3_errmsg(db_));
        }
        if (sqlite3_step(st) != SQLITE_DONE)
            throw std::runtime_error("SQLite error inserting into " + name_ + ": " + sqlite3_errmsg(db_));
        sqlite3_reset(st);
        std::fill(set_.begin(), set_.end(), 0);
        ++next_id_;
        return id;
    }

private:
    void put(std::string_view col, Value v) {
        auto it = index_.find(col);
        if (it == index_.end()) throw std::runtime_error("internal error: unknown column " + name_ + "." + std::string(col));
        auto const k = static_cast<std::size_t>(it->second);
        Col const& c = cols_[k];
        bool ok = std::holds_alternative<std::monostate>(v) ? !c.not_null
                  : c.ty == Ty::I                           ? std::holds_alternative<i64>(v)
                  : c.ty == Ty::R                           ? std::holds_alternative<double>(v)
                                                            : std::holds_alternative<std::string>(v);
        if (!ok) throw std::runtime_error("internal error: bad value type for " + name_ + "." + c.name);
        vals_[k] = std::move(v);
        set_[k] = 1;
    }

    std::string name_;
    std::vector<Col> cols_;
    struct SvHash {
        using is_transparent = void;
        std::size_t operator()(std::string_view v) const noexcept { return std::hash<std::string_view>{}(v); }
    };
    std::unordered_map<std::string, int, SvHash, std::equal_to<>> index_;
    std::vector<Value> vals_;
    std::vector<char> set_;
    sqlite3* db_ = nullptr;
    Stmt stmt_;
    i64 next_id_ = 1;
};

} // namespace portfolio::generator
