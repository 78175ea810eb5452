//
// agentio/tool/toolset.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// A toolset is a compile-time list of tool types. The list is checked when it
// is named (each tool's requirements, unique names), listed in declaration
// order, and dispatched by name with a loop over constant names and a switch
// on the index: no virtual call, no map built at start-up. The same value
// serves the model's tool loop and an MCP server.
//
// Tools discovered at run time (from an MCP server, a plugin) live in
// `dynamic_tools`; `combined_toolset` puts both behind one interface while
// calls to the static tools keep their static path.
//

#ifndef AGENTIO_TOOL_TOOLSET_HPP
#define AGENTIO_TOOL_TOOLSET_HPP

#include <agentio/tool/descriptor.hpp>
#include <agentio/tool/schema.hpp>
#include <agentio/tool/tool.hpp>
#include <agentio/tool/validator.hpp>

#include <boost/asio/awaitable.hpp>
#include <boost/json/object.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>
#include <boost/mp11/algorithm.hpp>
#include <boost/system/result.hpp>

#include <array>
#include <concepts>
#include <cstddef>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

namespace agentio {

/// Options of a toolset: how arguments are validated, and the language of
/// the messages the model gets when a call goes wrong.
struct toolset_options
{
    validation_options validation;
};

/** Something that lists tools and calls them by name: a @ref toolset,
    @ref dynamic_tools, or a @ref combined_toolset.

    `call` never throws for a bad call: unknown tool, invalid arguments and a
    tool's exception all come back as an error @ref tool_result.
*/
// clang-format off
template<class C>
concept tool_catalog = requires(C const& c, std::string_view name, json::value const& args, tool_context& ctx) {
    { c.call(name, args, ctx) } -> std::same_as<asio::awaitable<tool_result>>;
    { c.contains(name) } -> std::same_as<bool>;
    c.descriptors();
};
// clang-format on

/** A non-owning view of any @ref tool_catalog, through three functions.

    Code that serves tools by name (an MCP server, for one) takes it so that
    it is compiled once whatever the catalog; the catalog must outlive the
    view. It is itself a tool_catalog.
*/
class tool_catalog_ref
{
public:
    /// Views `catalog` (not copied).
    template<class Catalog>
    requires(tool_catalog<Catalog> &&
        !std::same_as<Catalog, tool_catalog_ref>) explicit tool_catalog_ref(Catalog const& catalog) noexcept
        : catalog_(&catalog)
        , operations_(&operations_for<Catalog>)
    {
    }

    /// The catalog's tools, in its order.
    std::vector<tool_descriptor> descriptors() const { return operations_->descriptors(catalog_); }

    /// Whether the catalog has a tool of that name.
    bool contains(std::string_view name) const { return operations_->contains(catalog_, name); }

    /// The catalog's `call`.
    asio::awaitable<tool_result> call(std::string_view name, json::value const& arguments, tool_context& ctx) const
    {
        return operations_->call(catalog_, name, arguments, ctx);
    }

private:
    struct operations
    {
        std::vector<tool_descriptor> (*descriptors)(void const*);
        bool (*contains)(void const*, std::string_view);
        asio::awaitable<tool_result> (*call)(void const*, std::string_view, json::value const&, tool_context&);
    };

    template<class Catalog>
    static constexpr operations operations_for{
        [](void const* c) {
            auto listed = static_cast<Catalog const*>(c)->descriptors();
            if constexpr(std::same_as<decltype(listed), std::vector<tool_descriptor>>)
                return listed;
            else
                return std::vector<tool_descriptor>(listed.begin(), listed.end());
        },
        [](void const* c, std::string_view name) { return static_cast<Catalog const*>(c)->contains(name); },
        [](void const* c, std::string_view name, json::value const& arguments, tool_context& ctx) {
            return static_cast<Catalog const*>(c)->call(name, arguments, ctx);
        }};

    void const* catalog_;
    operations const* operations_;
};

namespace detail {

template<class A, class B, bool Distinct>
struct tool_names_must_be_unique
{
    static_assert(Distinct, "agentio: two tools of a toolset have the same name (they are 'A' and 'B' above)");
};

template<class... Tools>
constexpr bool toolset_names_unique()
{
    constexpr std::array<std::string_view, sizeof...(Tools)> names{Tools::name...};
    constexpr auto duplicate = [&] {
        for(std::size_t i = 0; i < names.size(); ++i)
            for(std::size_t j = i + 1; j < names.size(); ++j)
                if(names[i] == names[j])
                    return std::pair<std::size_t, std::size_t>{i, j};
        return std::pair<std::size_t, std::size_t>{0, 0};
    }();
    if constexpr(duplicate.second != 0)
    {
        using list = boost::mp11::mp_list<Tools...>;
        (void)tool_names_must_be_unique<boost::mp11::mp_at_c<list, duplicate.first>,
            boost::mp11::mp_at_c<list, duplicate.second>, false>{};
        return false;
    }
    return true;
}

// Parsed once per argument type, on first use; the text is a constant.
template<class Args>
json::object const& parsed_schema()
{
    static json::object const schema = json::parse(schema_of<Args>).as_object();
    return schema;
}

template<class Args>
schema_validator const& validator_for()
{
    // Generated schemas use only what the validator supports; failing here
    // is a bug in agentio, not in the tool.
    static schema_validator const validator = [] {
        auto compiled = schema_validator::compile(json::value(parsed_schema<Args>()));
        if(!compiled)
            throw std::logic_error("agentio: generated schema does not compile: " + compiled.error());
        return std::move(*compiled);
    }();
    return validator;
}

struct toolset_messages
{
    static std::string unknown_tool(messages const& m, std::string_view name, std::string const& available)
    {
        return format_message(m.unknown_tool, {{"tool", name}, {"available", available}});
    }

    static std::string invalid_arguments(messages const& m, std::string_view name, validation_report const& r)
    {
        return format_message(m.invalid_arguments, {{"tool", name}}) + '\n' + format_validation_errors(r, m);
    }

    static std::string not_convertible(messages const& m, std::string_view name)
    {
        return format_message(m.arguments_not_convertible, {{"tool", name}});
    }

    static std::string failed(messages const& m, std::string_view name, std::string_view what)
    {
        return format_message(m.tool_failed, {{"tool", name}, {"reason", what}});
    }
};

inline std::string describe_exception(std::exception_ptr const& e)
{
    try
    {
        std::rethrow_exception(e);
    }
    catch(std::exception const& ex)
    {
        return ex.what();
    }
    catch(...)
    {
        return "unknown exception";
    }
}

} // namespace detail

/** A compile-time list of tools.

    @code
    using portfolio_tools = agentio::toolset<buscar_iniciativas, contar_iniciativas>;
    portfolio_tools tools{buscar_iniciativas{api}, contar_iniciativas{api}};
    agentio::tool_result r = co_await tools.call("contar_iniciativas", arguments, ctx);
    @endcode

    Naming the type checks, at compile time, each tool's requirements (see
    @ref tool) and that the names are unique. Tools are stored by value and
    called through `const&`: a tool may be called concurrently.
*/
template<class... Tools>
class toolset
{
    static constexpr bool tools_valid = (detail::tool_requirements<Tools>::value && ... && true);
    static constexpr bool names_unique = [] {
        if constexpr(tools_valid)
            return detail::toolset_names_unique<Tools...>();
        else
            return false;
    }();

    static_assert(tools_valid && names_unique, "agentio: this toolset is not valid; the errors above say why");

public:
    /// The tool types, for layers that check them at compile time.
    using tool_types = boost::mp11::mp_list<Tools...>;

    /// Number of tools.
    static constexpr std::size_t size = sizeof...(Tools);

    /// The tool names, in declaration order.
    static constexpr std::array<std::string_view, size> names{detail::tool_name_or_empty<Tools>()...};

    /// Default-constructs every tool.
    // clang-format off
    toolset() requires(std::default_initializable<Tools> && ...) = default;
    // clang-format on

    /// Takes the tools, typically holding their dependencies.
    explicit toolset(Tools... tools) : tools_(std::move(tools)...) {}

    /// Takes options and the tools.
    explicit toolset(toolset_options options, Tools... tools)
        : tools_(std::move(tools)...)
        , options_(std::move(options))
    {
    }

    /// The index of a tool by name, usable in constant expressions.
    static constexpr std::optional<std::size_t> index_of(std::string_view name) noexcept
    {
        for(std::size_t i = 0; i < size; ++i)
            if(names[i] == name)
                return i;
        return std::nullopt;
    }

    /// True when a tool has this name.
    bool contains(std::string_view name) const noexcept { return index_of(name).has_value(); }

    /// The tools as a model or client sees them, in declaration order.
    static std::span<tool_descriptor const> descriptors();

    /** Validates the arguments, converts them and calls the tool.

        @param name the tool's name, as the model sent it
        @param arguments the arguments, as the model sent them
        @param ctx the call's context; `ctx.tool_name` is set by the caller
        @return the tool's result; an error result (never an exception) for
        an unknown name, arguments the schema refuses (with JSON Pointers),
        or a tool that threw.
    */
    asio::awaitable<tool_result> call(std::string_view name, json::value const& arguments, tool_context& ctx) const;

    /// The tool at index `I`.
    template<std::size_t I>
    auto const& get() const noexcept
    {
        return std::get<I>(tools_);
    }

    /// The tool of type `T`.
    template<class T>
    T const& get() const noexcept
    {
        return std::get<T>(tools_);
    }

    toolset_options const& options() const noexcept { return options_; }
    void options(toolset_options options) { options_ = std::move(options); }

private:
    template<std::size_t I>
    asio::awaitable<tool_result> call_at(json::value const& arguments, tool_context& ctx) const;

    std::tuple<Tools...> tools_;
    toolset_options options_;
};

/** Tools known only at run time: a name, a description, a JSON Schema and a
    coroutine taking JSON.

    Arguments are validated against the schema when it compiles (see
    @ref schema_validator); a schema beyond what the validator supports is
    passed through, its checks left to the tool. Adding, removing and calling
    may happen concurrently: a call keeps the tool it found alive.
*/
class dynamic_tools
{
public:
    /// The call of a runtime tool.
    using handler_type = std::function<asio::awaitable<tool_result>(json::value const& arguments, tool_context& ctx)>;

    /// A runtime tool.
    struct definition
    {
        std::string name;
        std::string description;
        json::object input_schema;
        handler_type handler;
        /// A call waits for a person's approval (@ref tool_descriptor::requires_approval).
        bool requires_approval = false;
        /// A second call with the same key acts as the first (@ref tool_descriptor::idempotent).
        bool idempotent = false;
    };

    dynamic_tools() : state_(std::make_unique<state>()) {}

    /// Adds a tool. Fails with a message when the name is invalid or taken,
    /// or the description is empty.
    boost::system::result<void, std::string> add(definition def);

    /// Removes a tool; false when there was none by that name.
    bool remove(std::string_view name);

    bool contains(std::string_view name) const;

    /// The tools, in the order they were added.
    std::vector<tool_descriptor> descriptors() const;

    /// As @ref toolset::call, with the given validation options (copied: the
    /// call may outlive the expression that made it).
    asio::awaitable<tool_result> call(std::string_view name, json::value const& arguments, tool_context& ctx,
        validation_options options) const;

    /// As @ref toolset::call, with default validation options.
    asio::awaitable<tool_result> call(std::string_view name, json::value const& arguments, tool_context& ctx) const
    {
        return call(name, arguments, ctx, validation_options{});
    }

private:
    struct entry
    {
        definition def;
        std::string schema_text;
        std::optional<schema_validator> validator;
    };

    struct state
    {
        mutable std::mutex mutex;
        std::vector<std::shared_ptr<entry const>> entries;
    };

    std::shared_ptr<entry const> find(std::string_view name) const;

    std::unique_ptr<state> state_;
};

/** A static @ref toolset and @ref dynamic_tools behind one interface.

    Static tools are found first and called through their static path; a
    runtime tool cannot take a static tool's name.
*/
template<class Toolset>
class combined_toolset
{
public:
    /// The static tools' types.
    using tool_types = typename Toolset::tool_types;

    explicit combined_toolset(Toolset tools = {}) : static_(std::move(tools)) {}

    Toolset const& static_tools() const noexcept { return static_; }

    /// Adds a runtime tool (see @ref dynamic_tools::add); a name of the
    /// static toolset is refused.
    boost::system::result<void, std::string> add(dynamic_tools::definition def)
    {
        if(static_.contains(def.name))
            return "a static tool is already named '" + def.name + "'";
        return dynamic_.add(std::move(def));
    }

    bool remove(std::string_view name) { return dynamic_.remove(name); }

    bool contains(std::string_view name) const { return static_.contains(name) || dynamic_.contains(name); }

    /// Static tools in declaration order, then runtime tools in the order added.
    std::vector<tool_descriptor> descriptors() const
    {
        auto const fixed = Toolset::descriptors();
        std::vector<tool_descriptor> all(fixed.begin(), fixed.end());
        auto runtime = dynamic_.descriptors();
        all.insert(all.end(), std::make_move_iterator(runtime.begin()), std::make_move_iterator(runtime.end()));
        return all;
    }

    asio::awaitable<tool_result> call(std::string_view name, json::value const& arguments, tool_context& ctx) const
    {
        if(static_.contains(name))
            return static_.call(name, arguments, ctx);
        return dynamic_.call(name, arguments, ctx, static_.options().validation);
    }

private:
    Toolset static_;
    dynamic_tools dynamic_;
};

} // namespace agentio

#include <agentio/tool/impl/toolset.hpp>

#endif
