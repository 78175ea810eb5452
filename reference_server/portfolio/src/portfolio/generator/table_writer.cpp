// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

#include "portfolio/generator/table_writer.hpp"

#include "portfolio/generator/text.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <utility>

namespace portfolio::generator {

void execute(agentio::sqlite::connection& db, std::string const& sql)
{
    if(!db.execute(sql.c_str()))
        throw std::runtime_error("SQLite error (" + truncate_utf8(sql, 80) + "): " + db.last_error_message());
}

Table::Table(std::string name, std::initializer_list<char const*> spec) : name_(std::move(name))
{
    cols_.push_back({"id", Ty::I, true});
    for(char const* s : spec)
    {
        std::string_view v(s);
        auto const colon = v.find(':');
        Col c{std::string(v.substr(0, colon)), Ty::T, false};
        std::string_view t = v.substr(colon + 1);
        if(!t.empty() && t.back() == '!')
        {
            c.not_null = true;
            t.remove_suffix(1);
        }
        c.ty = t == "I" ? Ty::I : t == "R" ? Ty::R : Ty::T;
        cols_.push_back(std::move(c));
    }
    for(std::size_t i = 0; i < cols_.size(); ++i)
        index_.emplace(cols_[i].name, static_cast<int>(i));
    vals_.resize(cols_.size());
    set_.assign(cols_.size(), 0);
}

std::string Table::create_sql() const
{
    std::string s = "CREATE TABLE " + name_ + " (\n  id INTEGER PRIMARY KEY";
    for(std::size_t i = 1; i < cols_.size(); ++i)
    {
        s += ",\n  " + cols_[i].name + (cols_[i].ty == Ty::I ? " INTEGER" : cols_[i].ty == Ty::R ? " REAL" : " TEXT");
        if(cols_[i].not_null)
            s += " NOT NULL";
    }
    return s + "\n)";
}

void Table::prepare(agentio::sqlite::connection& db)
{
    db_ = &db;
    std::string s = "INSERT INTO " + name_ + " VALUES (";
    for(std::size_t i = 0; i < cols_.size(); ++i)
        s += i ? ",?" : "?";
    s += ")";
    auto stmt = db.prepare(s);
    if(!stmt)
        throw std::runtime_error("SQLite error preparing (" + truncate_utf8(s, 80) + "): " + db.last_error_message());
    stmt_ = std::move(*stmt);
}

i64 Table::insert()
{
    i64 const id = next_id_;
    vals_[0] = id;
    set_[0] = 1;
    for(std::size_t i = 0; i < cols_.size(); ++i)
    {
        if(!set_[i])
            throw std::runtime_error("internal error: column " + name_ + "." + cols_[i].name + " not set");
        int const p = static_cast<int>(i) + 1;
        Value const& v = vals_[i];
        auto const bound = std::holds_alternative<std::monostate>(v) ? stmt_.bind_null(p)
            : std::holds_alternative<i64>(v)    ? stmt_.bind(p, static_cast<std::int64_t>(std::get<i64>(v)))
            : std::holds_alternative<double>(v) ? stmt_.bind(p, std::get<double>(v))
                                                : stmt_.bind(p, std::string_view(std::get<std::string>(v)));
        if(!bound)
            throw std::runtime_error("SQLite bind error on " + name_ + ": " + db_->last_error_message());
    }
    auto const stepped = stmt_.step(); // false: done (an INSERT returns no row)
    if(!stepped || *stepped)
        throw std::runtime_error("SQLite error inserting into " + name_ + ": " + db_->last_error_message());
    stmt_.reset();
    std::fill(set_.begin(), set_.end(), 0);
    ++next_id_;
    return id;
}

void Table::put(std::string_view col, Value v)
{
    auto it = index_.find(col);
    if(it == index_.end())
        throw std::runtime_error("internal error: unknown column " + name_ + "." + std::string(col));
    auto const k = static_cast<std::size_t>(it->second);
    Col const& c = cols_[k];
    bool ok = std::holds_alternative<std::monostate>(v) ? !c.not_null
        : c.ty == Ty::I                                 ? std::holds_alternative<i64>(v)
        : c.ty == Ty::R                                 ? std::holds_alternative<double>(v)
                                                        : std::holds_alternative<std::string>(v);
    if(!ok)
        throw std::runtime_error("internal error: bad value type for " + name_ + "." + c.name);
    vals_[k] = std::move(v);
    set_[k] = 1;
}

} // namespace portfolio::generator
