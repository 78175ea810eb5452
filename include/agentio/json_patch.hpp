//
// agentio/json_patch.hpp
// ~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// JSON Patch (RFC 6902) between two documents, and applied to one: how a state
// that changes a little at a time travels as its changes (AG-UI's
// STATE_DELTA) instead of whole each time.
//

#ifndef AGENTIO_JSON_PATCH_HPP
#define AGENTIO_JSON_PATCH_HPP

#include <agentio/detail/json_pointer.hpp>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <charconv>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace agentio::json_patch {

namespace json = boost::json;

namespace detail {

inline void diff_into(json::value const& from, json::value const& to, std::string const& path, json::array& ops)
{
    if(from == to)
        return;
    auto const op = [&](std::string_view name, std::string const& where, json::value const* value) {
        json::object o{{"op", name}, {"path", where}};
        if(value)
            o["value"] = *value;
        ops.push_back(std::move(o));
    };
    if(from.is_object() && to.is_object())
    {
        auto const& a = from.get_object();
        auto const& b = to.get_object();
        for(auto const& [key, value] : a)
            if(!b.contains(key))
            {
                std::string where = path;
                agentio::detail::append_pointer_token(where, key);
                op("remove", where, nullptr);
            }
        for(auto const& [key, value] : b)
        {
            std::string where = path;
            agentio::detail::append_pointer_token(where, key);
            if(auto const* before = a.if_contains(key))
                diff_into(*before, value, where, ops);
            else
                op("add", where, &value);
        }
        return;
    }
    if(from.is_array() && to.is_array())
    {
        // Element by element over the common length; what grew is added, what shrank removed from the end
        // (so that each index still names the element it meant).
        auto const& a = from.get_array();
        auto const& b = to.get_array();
        std::size_t const common = std::min(a.size(), b.size());
        for(std::size_t i = 0; i < common; ++i)
            diff_into(a[i], b[i], path + "/" + std::to_string(i), ops);
        for(std::size_t i = common; i < b.size(); ++i)
            op("add", path + "/" + std::to_string(i), &b[i]);
        for(std::size_t i = a.size(); i > common; --i)
            op("remove", path + "/" + std::to_string(i - 1), nullptr);
        return;
    }
    op("replace", path, &to);
}

// The reference tokens of a pointer, unescaped; false when it is not a JSON Pointer.
inline bool split_pointer(std::string_view pointer, std::vector<std::string>& tokens)
{
    tokens.clear();
    if(pointer.empty())
        return true;
    if(pointer.front() != '/')
        return false;
    pointer.remove_prefix(1);
    while(true)
    {
        auto const slash = pointer.find('/');
        auto const raw = pointer.substr(0, slash);
        std::string token;
        for(std::size_t i = 0; i < raw.size(); ++i)
        {
            if(raw[i] != '~')
            {
                token += raw[i];
                continue;
            }
            if(i + 1 == raw.size() || (raw[i + 1] != '0' && raw[i + 1] != '1'))
                return false;
            token += raw[i + 1] == '0' ? '~' : '/';
            ++i;
        }
        tokens.push_back(std::move(token));
        if(slash == std::string_view::npos)
            return true;
        pointer.remove_prefix(slash + 1);
    }
}

// An array index as a pointer writes it: digits without a leading zero; `-` is the end (when `end_ok`).
inline bool array_index(std::string const& token, json::array const& a, bool end_ok, std::size_t& index)
{
    if(token == "-" && end_ok)
    {
        index = a.size();
        return true;
    }
    if(token.empty() || (token.size() > 1 && token.front() == '0'))
        return false;
    auto const [end, ec] = std::from_chars(token.data(), token.data() + token.size(), index);
    if(ec != std::errc() || end != token.data() + token.size())
        return false;
    return end_ok ? index <= a.size() : index < a.size();
}

// The value a pointer names; null when it names nothing.
inline json::value* resolve(json::value& doc, std::vector<std::string> const& tokens)
{
    json::value* at = &doc;
    for(auto const& t : tokens)
    {
        if(auto* o = at->if_object())
        {
            auto* next = o->if_contains(t);
            if(!next)
                return nullptr;
            at = next;
        }
        else if(auto* a = at->if_array())
        {
            std::size_t i = 0;
            if(!array_index(t, *a, false, i))
                return nullptr;
            at = &(*a)[i];
        }
        else
            return nullptr;
    }
    return at;
}

} // namespace detail

/** The operations that turn `from` into `to`: `add`, `remove` and
    `replace` (RFC 6902), none when they are equal. Objects are compared key
    by key and arrays index by index, so a change deep inside touches only
    its own path; moves are not detected (they are written as a remove and an
    add). `apply(from, diff(from, to))` gives `to`. */
inline json::array diff(json::value const& from, json::value const& to)
{
    json::array ops;
    detail::diff_into(from, to, "", ops);
    return ops;
}

/** Applies a JSON Patch (RFC 6902: `add`, `remove`, `replace`, `move`,
    `copy`, `test`) to `doc`, all or nothing: on failure `doc` is left as it
    was and the result says which operation failed and why ("operation 2:
    the path '/a/3' names nothing"); empty on success. */
inline std::string apply(json::value& doc, json::array const& patch)
{
    json::value work = doc;
    std::vector<std::string> tokens;
    std::vector<std::string> from_tokens;
    for(std::size_t i = 0; i < patch.size(); ++i)
    {
        auto const fail = [&](std::string const& why) { return "operation " + std::to_string(i) + ": " + why; };
        auto const* o = patch[i].if_object();
        if(!o)
            return fail("not an object");
        auto const* op_value = o->if_contains("op");
        auto const* path_value = o->if_contains("path");
        if(!op_value || !op_value->is_string())
            return fail("'op' must be a string");
        if(!path_value || !path_value->is_string())
            return fail("'path' must be a string");
        std::string_view const op = op_value->get_string();
        std::string const path(path_value->get_string());
        if(!detail::split_pointer(path, tokens))
            return fail("'" + path + "' is not a JSON Pointer");
        auto const* value = o->if_contains("value");
        json::value moved; // what `move` and `copy` take from their `from`
        if(op == "move" || op == "copy")
        {
            auto const* from_value = o->if_contains("from");
            if(!from_value || !from_value->is_string())
                return fail("'from' must be a string");
            std::string const from(from_value->get_string());
            if(!detail::split_pointer(from, from_tokens))
                return fail("'" + from + "' is not a JSON Pointer");
            auto const* source = detail::resolve(work, from_tokens);
            if(!source)
                return fail("the path '" + from + "' names nothing");
            if(op == "move" && path.size() > from.size() && path.compare(0, from.size(), from) == 0 &&
                path[from.size()] == '/')
                return fail("a value cannot move into itself");
            moved = *source;
            value = &moved;
        }
        else if(op == "add" || op == "replace" || op == "test")
        {
            if(!value)
                return fail("'value' is missing");
        }
        else if(op != "remove")
            return fail(std::string("'").append(op).append("' is not an operation"));

        if(op == "test")
        {
            auto const* target = detail::resolve(work, tokens);
            if(!target || *target != *value)
                return fail("the value at '" + path + "' is not the one tested");
            continue;
        }
        if(op == "replace")
        {
            auto* target = detail::resolve(work, tokens);
            if(!target)
                return fail("the path '" + path + "' names nothing");
            *target = *value;
            continue;
        }
        if(op == "remove" || op == "move")
        {
            auto const& remove_at = op == "move" ? from_tokens : tokens;
            std::string const where = op == "move" ? std::string(o->at("from").get_string()) : path;
            if(remove_at.empty())
                return fail(op == "remove" ? "the whole document cannot be removed"
                                           : "the whole document cannot be moved");
            std::vector<std::string> parent_tokens(remove_at.begin(), remove_at.end() - 1);
            auto* parent = detail::resolve(work, parent_tokens);
            bool removed = false;
            if(parent && parent->is_object())
                removed = parent->get_object().erase(remove_at.back()) == 1;
            else if(parent && parent->is_array())
            {
                std::size_t index = 0;
                if(detail::array_index(remove_at.back(), parent->get_array(), false, index))
                {
                    parent->get_array().erase(parent->get_array().begin() + static_cast<std::ptrdiff_t>(index));
                    removed = true;
                }
            }
            if(!removed)
                return fail("the path '" + where + "' names nothing");
            if(op == "remove")
                continue;
        }
        // add, copy, and the second half of move.
        if(tokens.empty())
        {
            work = *value;
            continue;
        }
        std::vector<std::string> parent_tokens(tokens.begin(), tokens.end() - 1);
        auto* parent = detail::resolve(work, parent_tokens);
        if(parent && parent->is_object())
            parent->get_object()[tokens.back()] = *value;
        else if(parent && parent->is_array())
        {
            std::size_t index = 0;
            if(!detail::array_index(tokens.back(), parent->get_array(), true, index))
                return fail("'" + tokens.back() + "' is not an index of the array at '" + path + "'");
            parent->get_array().insert(parent->get_array().begin() + static_cast<std::ptrdiff_t>(index), *value);
        }
        else
            return fail("the parent of '" + path + "' is not an object or an array");
    }
    doc = std::move(work);
    return {};
}

} // namespace agentio::json_patch

#endif
