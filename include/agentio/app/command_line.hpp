//
// agentio/app/command_line.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// A program's commands and options as a typed table: each option writes into
// a variable of the program, and the same table produces the usage text and
// the errors, worded through agentio::messages.
//

#ifndef AGENTIO_APP_COMMAND_LINE_HPP
#define AGENTIO_APP_COMMAND_LINE_HPP

#include <agentio/config.hpp>
#include <agentio/environment.hpp>
#include <agentio/messages.hpp>

#include <algorithm>
#include <chrono>
#include <concepts>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <functional>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace agentio::app {

/** What the user got wrong on the command line or in a variable: one line,
    in the program's language, and exit status 2 (see @ref run_main).
*/
class usage_error : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

class command;
class command_line;

/** One option of a command: `--name VALUE`, or a flag without a value.
    Returned by @ref command::option so that limits can be chained.
*/
class option
{
public:
    /// Whole numbers from `lo` to `hi` (numbers only; by default the type's range, from 0).
    option& range(std::int64_t lo, std::uint64_t hi)
    {
        min_ = lo;
        max_ = hi;
        return *this;
    }

    /// The values allowed (text only).
    option& one_of(std::vector<std::string> values)
    {
        choices_ = std::move(values);
        return *this;
    }

    /// The command cannot run without it.
    option& required() noexcept
    {
        required_ = true;
        return *this;
    }

    /// The option's name, `--port`.
    std::string const& name() const noexcept { return name_; }

    /// Whether the user gave it on this command line.
    bool given() const noexcept { return given_; }

private:
    friend class command;
    friend class command_line;

    std::string name_;
    std::string value_name_; // empty: a flag
    std::string help_;
    std::function<void(option const&, std::string_view, messages const&)> store_;
    std::vector<std::string> choices_;
    std::int64_t min_ = 0;
    std::uint64_t max_ = 0;
    bool required_ = false;
    bool given_ = false;
};

/** The command line's typed values: text, paths, whole numbers (with a
    range), durations in their own unit, and `bool` for flags.
*/
template<class T>
concept option_value = std::same_as<T, std::string> || std::same_as<T, std::filesystem::path> ||
    std::same_as<T, bool> ||(std::integral<T> && !std::same_as<T, char>) ||
    requires
{
    typename T::rep;
    typename T::period;
}; // a std::chrono::duration

/** A command of a program (`serve`, `ask`), or the program itself when it
    has no commands: its options and positional arguments.
*/
class command
{
public:
    /** Adds `--name VALUE` (or a flag, for a `bool`), written into `target`
        when given. `target` keeps its value otherwise: its default.

        @param name The option with its dashes, `--port`.
        @param target Where the value goes; must outlive the parse.
        @param value_name How the usage names the value (`P`, `RUTA`); ignored for a flag.
        @param help One line for the usage; empty: none.
    */
    template<option_value T>
    app::option& option(std::string name, T& target, std::string value_name = "VALUE", std::string help = {});

    /// Adds a positional argument that must be given (`PREGUNTA`).
    AGENTIO_DECL command& argument(std::string value_name, std::string& target, std::string help = {});

    /// Adds positional arguments, at least `at_least` of them (`RUTA…`).
    AGENTIO_DECL command& arguments(std::string value_name, std::vector<std::string>& target, std::size_t at_least = 1,
        std::string help = {});

    /// The command's name; empty for a program without commands.
    std::string const& name() const noexcept { return name_; }

    /// The option named `name`, if this command has it.
    AGENTIO_DECL app::option const* find(std::string_view name) const noexcept;

    /// Whether the last parse found the option `name`: what the command line says over the variables.
    bool given(std::string_view name) const noexcept
    {
        auto const* o = find(name);
        return o && o->given();
    }

private:
    friend class command_line;

    struct positional
    {
        std::string value_name;
        std::string help;
        std::string* one = nullptr;
        std::vector<std::string>* many = nullptr;
        std::size_t at_least = 1;
    };

    command(std::string name, std::string help) : name_(std::move(name)), help_(std::move(help)) {}

    AGENTIO_DECL void parse(std::vector<std::string_view> const& args, messages const& texts);
    AGENTIO_DECL std::string synopsis() const;

    std::string name_;
    std::string help_;
    std::deque<app::option> options_; // a deque: references returned by option() stay valid
    std::vector<positional> positionals_;
};

/** A program's command line.

    @code
    agentio::app::command_line cli("agentio-facturas", agentio::spanish_messages);
    std::string db, host = "127.0.0.1";
    unsigned short port = 7003;
    auto& serve = cli.command("serve", "sirve la API HTTP");
    serve.option("--db", db, "RUTA").required();
    serve.option("--host", host, "H");
    serve.option("--port", port, "P");
    auto const parsed = cli.parse(argc, argv); // throws app::usage_error
    @endcode

    A program with commands takes the command first; one without takes its
    options at once (@ref root). Options come as `--name VALUE` or
    `--name=VALUE`, in any order, mixed with the positional arguments; `--`
    ends the options. `--help` or `-h` anywhere asks for the usage.
*/
class command_line
{
public:
    /** @param program The program's name, as errors start with it.
        @param texts The sentences of errors and usage (`agentio::spanish_messages`, say).
    */
    explicit command_line(std::string program, messages const& texts = {})
        : program_(std::move(program))
        , texts_(texts)
        , root_({}, {})
    {
    }

    command_line(command_line const&) = delete;
    command_line& operator=(command_line const&) = delete;

    /// Adds a command; its options are its own.
    app::command& command(std::string name, std::string help = {})
    {
        commands_.push_back(app::command(std::move(name), std::move(help)));
        return commands_.back();
    }

    /// The program itself, for a program without commands.
    app::command& root() noexcept { return root_; }

    /// Text after the commands in the usage: what the program does, its variables.
    command_line& epilog(std::string text)
    {
        epilog_ = std::move(text);
        return *this;
    }

    /// What a parse found.
    struct parsed
    {
        /// The command chosen; empty for a program without commands.
        std::string command;
        /// `--help` was asked for: print @ref usage and do nothing else.
        bool help = false;
    };

    /** Reads `argv[1]`… into the variables of the chosen command.
        @throws usage_error naming the first thing wrong
    */
    AGENTIO_DECL parsed parse(int argc, char const* const* argv);

    /// @copydoc parse
    parsed parse(int argc, char** argv) { return parse(argc, const_cast<char const* const*>(argv)); }

    /// The usage text: a line per command with its options, then the epilog.
    AGENTIO_DECL std::string usage() const;

    std::string const& program() const noexcept { return program_; }
    messages const& texts() const noexcept { return texts_; }

private:
    std::string program_;
    messages texts_;
    app::command root_;
    std::deque<app::command> commands_;
    std::string epilog_;
};

/** Reads `name`'s whole number from the environment into `out` when set.
    @throws usage_error in the program's language when it is not a number in [lo, hi]
*/
AGENTIO_DECL void read_variable(char const* name, unsigned& out, unsigned lo, unsigned hi, messages const& texts,
    environment_lookup const& lookup = process_environment);

/// An @ref invalid_variable in the program's language (@ref messages::option_not_a_number or `option_not_one_of`).
AGENTIO_DECL std::string to_string(invalid_variable const& e, messages const& texts);

// --- template bodies -------------------------------------------------------------

namespace detail {

template<class T>
struct option_number
{
    using type = T;
};

template<class T>
requires requires
{
    typename T::rep;
}
struct option_number<T>
{
    using type = typename T::rep;
};

AGENTIO_DECL std::optional<std::uint64_t> parse_whole(std::string_view text, std::int64_t lo, std::uint64_t hi,
    bool& negative, std::int64_t& signed_value) noexcept;

AGENTIO_DECL std::string not_a_number(messages const& texts, std::string_view what, std::int64_t lo, std::uint64_t hi,
    std::string_view value);

} // namespace detail

template<option_value T>
app::option& command::option(std::string name, T& target, std::string value_name, std::string help)
{
    app::option& o = options_.emplace_back();
    o.name_ = std::move(name);
    o.help_ = std::move(help);
    if constexpr(std::same_as<T, bool>)
    {
        o.store_ = [&target](app::option const&, std::string_view, messages const&) { target = true; };
        return o;
    }
    else
    {
        o.value_name_ = std::move(value_name);
        if constexpr(std::same_as<T, std::string> || std::same_as<T, std::filesystem::path>)
        {
            o.store_ = [&target](app::option const& self, std::string_view text, messages const& texts) {
                if(!self.choices_.empty() &&
                    std::find(self.choices_.begin(), self.choices_.end(), text) == self.choices_.end())
                {
                    std::string values;
                    for(auto const& c : self.choices_)
                        values += (values.empty() ? "" : ", ") + c;
                    throw usage_error(format_message(texts.option_not_one_of,
                        {{"option", self.name_}, {"values", values}, {"value", text}}));
                }
                target = T(std::string(text));
            };
        }
        else
        {
            using number = typename detail::option_number<T>::type;
            static_assert(std::integral<number>, "a duration option counts whole units");
            o.min_ = std::is_signed_v<number> ? std::numeric_limits<number>::min() : 0;
            o.max_ = static_cast<std::uint64_t>(std::numeric_limits<number>::max());
            o.store_ = [&target](app::option const& self, std::string_view text, messages const& texts) {
                bool negative = false;
                std::int64_t signed_value = 0;
                auto const v = detail::parse_whole(text, self.min_, self.max_, negative, signed_value);
                if(!v)
                    throw usage_error(detail::not_a_number(texts, self.name_, self.min_, self.max_, text));
                number const n = negative ? static_cast<number>(signed_value) : static_cast<number>(*v);
                if constexpr(std::integral<T>)
                    target = n;
                else
                    target = T(n);
            };
        }
        return o;
    }
}

} // namespace agentio::app

#ifdef AGENTIO_HEADER_ONLY
#include <agentio/app/impl/command_line.ipp>
#endif

#endif
