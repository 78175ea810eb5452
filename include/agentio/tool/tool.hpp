//
// agentio/tool/tool.hpp
// ~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// What a tool is: a type with a name, a description, a described argument
// struct and a coroutine call operator; what it gets (a context) and what it
// gives back (a result the model, or an MCP client, can read).
//

#ifndef AGENTIO_TOOL_TOOL_HPP
#define AGENTIO_TOOL_TOOL_HPP

#include <agentio/json_text.hpp>
#include <agentio/tool/schema.hpp>

#include <boost/asio/awaitable.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <any>
#include <list>
#include <chrono>
#include <concepts>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <type_traits>
#include <variant>
#include <vector>

namespace agentio {

namespace asio = boost::asio;

/** Values a layer above the tools attaches to a call or to its result, one
    per type: the tools' layer carries them without knowing what they are.

    @code
    ctx.extensions.set(my_channel{...});        // the caller, before the call
    if(auto* c = ctx.extensions.find<my_channel>()) ...   // the tool
    @endcode
*/
class extensions
{
public:
    /// The value of type `T`, or null.
    template<class T>
    T* find() noexcept
    {
        for(auto& item : items_)
            if(auto* v = std::any_cast<T>(&item))
                return v;
        return nullptr;
    }

    /// The value of type `T`, or null.
    template<class T>
    T const* find() const noexcept
    {
        for(auto const& item : items_)
            if(auto const* v = std::any_cast<T>(&item))
                return v;
        return nullptr;
    }

    /// Sets the value of type `T`, replacing one already there; returns it.
    template<class T>
    T& set(T value)
    {
        if(auto* v = find<T>())
            return *v = std::move(value);
        return std::any_cast<T&>(items_.emplace_back(std::move(value)));
    }

    bool empty() const noexcept { return items_.empty(); }

private:
    std::list<std::any> items_; // nodes: a reference set() returned stays valid
};

/// A block of text in a tool result.
struct text_content
{
    std::string text;
};

/// An image in a tool result (MCP `image` content, Anthropic image blocks).
struct image_content
{
    /// e.g. `image/png`
    std::string mime_type;
    /// The image bytes in base64, as both wire formats carry them.
    std::string base64_data;
};

/// Audio in a tool result (MCP `audio` content). LLM providers get a note instead.
struct audio_content
{
    /// e.g. `audio/wav`
    std::string mime_type;
    std::string base64_data;
};

/// A resource embedded in a tool result (MCP `resource` content): its text,
/// or its bytes in base64. LLM providers get the text.
struct resource_content
{
    std::string uri;
    std::string mime_type = {};
    std::optional<std::string> text = {};
    std::optional<std::string> blob = {};
};

/// One block of a tool result's content.
using content_block = std::variant<text_content, image_content, audio_content, resource_content>;

/** What a tool call produced.

    The content blocks go to the model; `structured` is the same result as
    JSON for clients that read it (MCP `structuredContent`). An error result
    is still a result: the model reads the message and may correct itself.
*/
struct tool_result
{
    std::vector<content_block> content;
    std::optional<json::value> structured;
    bool is_error = false;
    /// One line for a UI ("15 valores distintos"); not sent to the model.
    /// Empty: the first line of the text is shown.
    std::string summary;

    /// What a layer above the tools attaches to the result (the MCP server's
    /// multi-round input: mcp::input_required).
    agentio::extensions extensions = {};

    /// A result with one text block.
    static tool_result text(std::string text)
    {
        tool_result r;
        r.content.emplace_back(text_content{std::move(text)});
        return r;
    }

    /// A JSON result: written as the text block (numbers in shortest form),
    /// and kept as structured content.
    static tool_result json(json::value value)
    {
        tool_result r;
        r.content.emplace_back(text_content{to_json_text(value)});
        r.structured = std::move(value);
        return r;
    }

    /// An error the model should read: `is_error` set, one text block.
    static tool_result error(std::string message)
    {
        tool_result r = text(std::move(message));
        r.is_error = true;
        return r;
    }

    /// Appends an image block; returns `*this` for chaining.
    tool_result& add_image(std::string mime_type, std::string base64_data)
    {
        content.emplace_back(image_content{std::move(mime_type), std::move(base64_data)});
        return *this;
    }

    /// The text blocks joined by newlines: what a text-only consumer shows.
    std::string joined_text() const
    {
        std::string out;
        for(auto const& block : content)
            if(auto const* t = std::get_if<text_content>(&block))
            {
                if(!out.empty())
                    out += '\n';
                out += t->text;
            }
        return out;
    }
};

/** What a tool knows about the call it is serving.

    Cancellation is not here: a tool is a coroutine, and the caller's
    cancellation reaches it through `asio::this_coro::cancellation_state`
    and every operation it awaits.
*/
struct tool_context
{
    /// The tool's name as the model called it.
    std::string_view tool_name = {};

    /// The call's identifier (Anthropic `tool_use.id`, OpenAI `tool_call.id`,
    /// MCP request id), for logs and correlation.
    std::string_view call_id = {};

    /** The same for every attempt at this call, across processes: the
        conversation's thread and the call's id ("THREAD/CALL"). A tool with
        side effects hands it downstream (an `Idempotency-Key` header, a
        unique column) so that a call run again after a crash acts once.
        Empty when the caller keeps no thread. */
    std::string_view idempotency_key = {};

    /** The W3C `traceparent` of the call's span (`execute_tool`): a tool
        that calls another service sends it as a header, so that the
        service's spans join the trace. Empty when the call is not traced. */
    std::string_view traceparent = {};

    /// When the caller stops waiting; tools doing long work can plan for it.
    std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();

    /// Progress sink (MCP `notifications/progress`); may be empty.
    std::function<void(double progress, std::optional<double> total, std::string_view message)> progress = {};

    /// Log sink (MCP `notifications/message`; levels as RFC 5424 names them:
    /// "debug", "info", "warning", ...); may be empty.
    std::function<void(std::string_view level, json::value data)> log = {};

    /// What the caller offers beyond the call itself, by type (the MCP
    /// server: a channel to its client, found with mcp::client_of).
    agentio::extensions extensions = {};

    /// Reports progress when somebody listens.
    void report_progress(double done, std::optional<double> total = {}, std::string_view message = {}) const
    {
        if(progress)
            progress(done, total, message);
    }

    /// Logs when somebody listens.
    void write_log(std::string_view level, json::value data) const
    {
        if(log)
            log(level, std::move(data));
    }
};

namespace detail {

// clang-format off
template<class T>
concept has_tool_name = requires {
    { T::name } -> std::convertible_to<std::string_view>;
};

template<class T>
concept has_tool_description = requires {
    { T::description } -> std::convertible_to<std::string_view>;
};

template<class T>
concept has_tool_args = requires { typename T::args; };

template<class T>
concept has_tool_call = has_tool_args<T> && requires(T const& t, typename T::args a, tool_context& ctx) {
    { t(std::move(a), ctx) } -> std::same_as<asio::awaitable<tool_result>>;
};
// clang-format on

template<class T>
constexpr std::string_view tool_name_or_empty()
{
    if constexpr(has_tool_name<T>)
        return T::name;
    else
        return {};
}

template<class T>
constexpr bool tool_args_described()
{
    if constexpr(has_tool_args<T>)
        return described_struct<typename T::args>;
    else
        return false;
}

template<class T>
constexpr bool tool_args_well_formed()
{
    if constexpr(tool_args_described<T>())
        return json_schema<typename T::args>::well_formed;
    else
        return false;
}

// Each requirement is its own assertion so the message says which one
// failed; the tool is the template argument 'Tool' the compiler prints.
template<class Tool>
struct tool_requirements
{
    static_assert(has_tool_name<Tool>,
        "agentio: a tool needs `static constexpr std::string_view name` (the tool is 'Tool' above)");
    static_assert(!has_tool_name<Tool> || valid_tool_name(tool_name_or_empty<Tool>()),
        "agentio: a tool name is 1 to 64 characters of [A-Za-z0-9_.-], the MCP rule (the tool is 'Tool' above)");
    static_assert(has_tool_description<Tool>,
        "agentio: a tool needs `static constexpr std::string_view description` (the tool is 'Tool' above)");
    static_assert(!has_tool_description<Tool> || !std::string_view(Tool::description).empty(),
        "agentio: a tool's description must not be empty: it is what the model reads (the tool is 'Tool' above)");
    static_assert(has_tool_args<Tool>, "agentio: a tool needs a nested `args` struct (the tool is 'Tool' above)");
    static_assert(!has_tool_args<Tool> || tool_args_described<Tool>(),
        "agentio: a tool's `args` must be described with BOOST_DESCRIBE_STRUCT (the tool is 'Tool' above)");
    static_assert(!tool_args_described<Tool>() || has_tool_call<Tool>,
        "agentio: a tool needs `asio::awaitable<agentio::tool_result> operator()(args, agentio::tool_context&) const` "
        "(the tool is 'Tool' above)");

    static constexpr bool value = has_tool_name<Tool> && valid_tool_name(tool_name_or_empty<Tool>()) &&
        has_tool_description<Tool> && tool_args_described<Tool>() && has_tool_call<Tool> &&
        tool_args_well_formed<Tool>();
};

} // namespace detail

/** A tool: a type the toolset can list, validate for and call.

    @code
    struct contar
    {
        static constexpr std::string_view name = "contar";
        static constexpr std::string_view description = "Cuenta iniciativas por estado";
        struct args { std::optional<std::string> estado; };
        asio::awaitable<agentio::tool_result> operator()(args, agentio::tool_context&) const;
    };
    BOOST_DESCRIBE_STRUCT(contar::args, (), (estado))
    @endcode

    Using a type that falls short in a @ref toolset gives one readable
    compile error per missing piece.
*/
template<class T>
concept tool = detail::has_tool_name<T> && detail::has_tool_description<T> && detail::has_tool_call<T> &&
    detail::described_struct<typename T::args>;

/// A string a template takes as an argument (C++20): a @ref function_tool's name and description.
template<std::size_t N>
struct fixed_string
{
    char value[N]{};

    constexpr fixed_string(char const (&text)[N]) noexcept
    {
        for(std::size_t i = 0; i < N; ++i)
            value[i] = text[i];
    }

    constexpr std::string_view view() const noexcept { return {value, N - 1}; }
};

namespace detail {

template<class F>
struct function_tool_args
{
    static_assert(sizeof(F) == 0,
        "agentio: a function_tool's function is `asio::awaitable<agentio::tool_result> f(Args, agentio::tool_context&)`");
};

template<class A>
struct function_tool_args<asio::awaitable<tool_result> (*)(A, tool_context&)>
{
    using type = std::remove_cvref_t<A>;
};

} // namespace detail

/** A tool made of a function: its name and description are template
    arguments, its arguments the function's first parameter.

    @code
    asio::awaitable<agentio::tool_result> convert(convert_args a, agentio::tool_context&);
    using convert_temperature = agentio::function_tool<"convert_temperature", "Converts a temperature.", convert>;
    @endcode

    The same checks hold as for a tool written as a type.
*/
template<fixed_string Name, fixed_string Description, auto Function>
struct function_tool
{
    static constexpr std::string_view name = Name.view();
    static constexpr std::string_view description = Description.view();
    using args = typename detail::function_tool_args<decltype(Function)>::type;

    asio::awaitable<tool_result> operator()(args a, tool_context& ctx) const { return Function(std::move(a), ctx); }
};

} // namespace agentio

#endif
