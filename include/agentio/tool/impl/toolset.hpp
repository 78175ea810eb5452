//
// agentio/tool/impl/toolset.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//

#ifndef AGENTIO_TOOL_IMPL_TOOLSET_HPP
#define AGENTIO_TOOL_IMPL_TOOLSET_HPP

#include <agentio/json_text.hpp>

#include <boost/mp11/algorithm.hpp>

#include <algorithm>

namespace agentio {

namespace detail {

// A tool asks for approval with `static constexpr bool requires_approval = true`.
template<class Tool>
constexpr bool requires_approval() noexcept
{
    if constexpr(requires { Tool::requires_approval; })
        return static_cast<bool>(Tool::requires_approval);
    else
        return false;
}

// A tool says a repeated call acts once with `static constexpr bool idempotent = true`.
template<class Tool>
constexpr bool is_idempotent() noexcept
{
    if constexpr(requires { Tool::idempotent; })
        return static_cast<bool>(Tool::idempotent);
    else
        return false;
}

} // namespace detail

template<class... Tools>
std::span<tool_descriptor const> toolset<Tools...>::descriptors()
{
    static std::array<tool_descriptor, size> const all{tool_descriptor{Tools::name, Tools::description,
        schema_of<typename Tools::args>, &detail::parsed_schema<typename Tools::args>(), nullptr,
        detail::requires_approval<Tools>(), detail::is_idempotent<Tools>()}...};
    return all;
}

template<class... Tools>
asio::awaitable<tool_result> toolset<Tools...>::call(std::string_view name, json::value const& arguments,
    tool_context& ctx) const
{
    auto const index = index_of(name);
    if(!index)
    {
        std::string available;
        for(auto n : names)
            available += (available.empty() ? "" : ", ") + std::string(n);
        co_return tool_result::error(detail::toolset_messages::unknown_tool(options_.validation.texts, name,
            available));
    }
    if constexpr(size > 0)
    {
        // One switch over the index; each case is a direct call of the tool.
        co_return co_await boost::mp11::mp_with_index<size>(*index,
            [&](auto i) { return this->template call_at<decltype(i)::value>(arguments, ctx); });
    }
    co_return tool_result{}; // unreachable: an empty toolset has no index
}

template<class... Tools>
template<std::size_t I>
asio::awaitable<tool_result> toolset<Tools...>::call_at(json::value const& arguments, tool_context& ctx) const
{
    using tool_type = std::tuple_element_t<I, std::tuple<Tools...>>;
    using args_type = typename tool_type::args;
    auto const& texts = options_.validation.texts;

    auto const report = detail::validator_for<args_type>().validate(arguments, options_.validation);
    if(!report.ok())
        co_return tool_result::error(detail::toolset_messages::invalid_arguments(texts, tool_type::name, report));

    args_type args{};
    if(!read_json(arguments, args))
        co_return tool_result::error(detail::toolset_messages::not_convertible(texts, tool_type::name));

    std::exception_ptr failure;
    try
    {
        co_return co_await std::get<I>(tools_)(std::move(args), ctx);
    }
    catch(...)
    {
        failure = std::current_exception();
    }
    co_return tool_result::error(detail::toolset_messages::failed(texts, tool_type::name,
        detail::describe_exception(failure)));
}

inline boost::system::result<void, std::string> dynamic_tools::add(definition def)
{
    if(!detail::valid_tool_name(def.name))
        return "invalid tool name '" + def.name + "': 1 to 64 characters of [A-Za-z0-9_.-]";
    if(def.description.empty())
        return "tool '" + def.name + "' has an empty description";
    if(!def.handler)
        return "tool '" + def.name + "' has no handler";
    auto e = std::make_shared<entry>();
    e->schema_text = to_json_text(def.input_schema);
    if(auto compiled = schema_validator::compile(json::value(def.input_schema)))
        e->validator.emplace(std::move(*compiled));
    e->def = std::move(def);
    std::lock_guard lock(state_->mutex);
    for(auto const& existing : state_->entries)
        if(existing->def.name == e->def.name)
            return "a tool is already named '" + e->def.name + "'";
    state_->entries.push_back(std::move(e));
    return {};
}

inline bool dynamic_tools::remove(std::string_view name)
{
    std::lock_guard lock(state_->mutex);
    auto& v = state_->entries;
    auto const it = std::find_if(v.begin(), v.end(), [&](auto const& e) { return e->def.name == name; });
    if(it == v.end())
        return false;
    v.erase(it);
    return true;
}

inline std::shared_ptr<dynamic_tools::entry const> dynamic_tools::find(std::string_view name) const
{
    std::lock_guard lock(state_->mutex);
    for(auto const& e : state_->entries)
        if(e->def.name == name)
            return e;
    return nullptr;
}

inline bool dynamic_tools::contains(std::string_view name) const
{
    return find(name) != nullptr;
}

inline std::vector<tool_descriptor> dynamic_tools::descriptors() const
{
    std::lock_guard lock(state_->mutex);
    std::vector<tool_descriptor> out;
    out.reserve(state_->entries.size());
    for(auto const& e : state_->entries)
        out.push_back({e->def.name, e->def.description, e->schema_text, &e->def.input_schema, e,
            e->def.requires_approval, e->def.idempotent});
    return out;
}

inline asio::awaitable<tool_result> dynamic_tools::call(std::string_view name, json::value const& arguments,
    tool_context& ctx, validation_options options) const
{
    auto const e = find(name);
    if(!e)
    {
        std::string available;
        for(auto const& d : descriptors())
            available += (available.empty() ? "" : ", ") + std::string(d.name);
        co_return tool_result::error(detail::toolset_messages::unknown_tool(options.texts, name, available));
    }
    if(e->validator)
    {
        auto const report = e->validator->validate(arguments, options);
        if(!report.ok())
            co_return tool_result::error(detail::toolset_messages::invalid_arguments(options.texts, name, report));
    }
    std::exception_ptr failure;
    try
    {
        co_return co_await e->def.handler(arguments, ctx);
    }
    catch(...)
    {
        failure = std::current_exception();
    }
    co_return tool_result::error(detail::toolset_messages::failed(options.texts, name,
        detail::describe_exception(failure)));
}

} // namespace agentio

#endif
