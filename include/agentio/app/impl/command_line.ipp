//
// agentio/app/impl/command_line.ipp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//

#ifndef AGENTIO_APP_IMPL_COMMAND_LINE_IPP
#define AGENTIO_APP_IMPL_COMMAND_LINE_IPP

#include <agentio/app/command_line.hpp>

#include <charconv>

namespace agentio::app {

namespace detail {

AGENTIO_DECL std::optional<std::uint64_t> parse_whole(std::string_view text, std::int64_t lo, std::uint64_t hi,
    bool& negative, std::int64_t& signed_value) noexcept
{
    negative = text.starts_with('-');
    char const* const end = text.data() + text.size();
    if(negative)
    {
        auto const [stop, ec] = std::from_chars(text.data(), end, signed_value);
        if(text.size() < 2 || ec != std::errc() || stop != end || signed_value < lo)
            return std::nullopt;
        return 0;
    }
    std::uint64_t v = 0;
    auto const [stop, ec] = std::from_chars(text.data(), end, v);
    if(text.empty() || ec != std::errc() || stop != end || v > hi || (lo > 0 && v < static_cast<std::uint64_t>(lo)))
        return std::nullopt;
    return v;
}

AGENTIO_DECL std::string not_a_number(messages const& texts, std::string_view what, std::int64_t lo, std::uint64_t hi,
    std::string_view value)
{
    auto const min = std::to_string(lo);
    auto const max = std::to_string(hi);
    return format_message(texts.option_not_a_number, {{"option", what}, {"min", min}, {"max", max}, {"value", value}});
}

} // namespace detail

AGENTIO_DECL app::option const* command::find(std::string_view name) const noexcept
{
    for(auto const& o : options_)
        if(o.name_ == name)
            return &o;
    return nullptr;
}

AGENTIO_DECL void command::parse(std::vector<std::string_view> const& args, messages const& texts)
{
    for(auto& o : options_)
        o.given_ = false;
    std::vector<std::string_view> loose; // the positional arguments
    bool options_ended = false;
    for(std::size_t i = 0; i < args.size(); ++i)
    {
        std::string_view arg = args[i];
        if(options_ended || !arg.starts_with("--") || arg.size() == 2)
        {
            if(arg == "--" && !options_ended)
                options_ended = true;
            else
                loose.push_back(arg);
            continue;
        }
        std::optional<std::string_view> inline_value;
        if(auto const eq = arg.find('='); eq != std::string_view::npos)
        {
            inline_value = arg.substr(eq + 1);
            arg = arg.substr(0, eq);
        }
        auto* o = const_cast<app::option*>(find(arg));
        if(!o)
            throw usage_error(format_message(texts.option_unknown, {{"option", arg}}));
        if(o->value_name_.empty())
        {
            if(inline_value)
                throw usage_error(format_message(texts.argument_unexpected, {{"argument", args[i]}}));
            o->store_(*o, {}, texts);
        }
        else if(inline_value)
            o->store_(*o, *inline_value, texts);
        else if(i + 1 < args.size())
            o->store_(*o, args[++i], texts);
        else
            throw usage_error(format_message(texts.option_value_missing, {{"option", arg}}));
        o->given_ = true;
    }
    auto const missing = [&](std::string const& argument) {
        return usage_error(name_.empty()
                ? format_message(texts.required_missing, {{"argument", argument}})
                : format_message(texts.argument_missing, {{"command", name_}, {"argument", argument}}));
    };
    std::size_t next = 0;
    for(auto const& p : positionals_)
    {
        if(p.one)
        {
            if(next >= loose.size())
                throw missing(p.value_name);
            *p.one = std::string(loose[next++]);
            continue;
        }
        std::size_t const left = loose.size() - next;
        if(left < p.at_least)
            throw missing(p.value_name);
        for(; next < loose.size(); ++next)
            p.many->emplace_back(loose[next]);
    }
    if(next < loose.size())
        throw usage_error(format_message(texts.argument_unexpected, {{"argument", loose[next]}}));
    for(auto const& o : options_)
        if(o.required_ && !o.given_)
            throw missing(o.name_ + " " + o.value_name_);
}

AGENTIO_DECL command& command::argument(std::string value_name, std::string& target, std::string help)
{
    positionals_.push_back({std::move(value_name), std::move(help), &target, nullptr, 1});
    return *this;
}

AGENTIO_DECL command& command::arguments(std::string value_name, std::vector<std::string>& target, std::size_t at_least,
    std::string help)
{
    positionals_.push_back({std::move(value_name), std::move(help), nullptr, &target, at_least});
    return *this;
}

AGENTIO_DECL std::string command::synopsis() const
{
    std::string line = name_;
    auto append = [&line](std::string const& word) {
        if(!line.empty())
            line += ' ';
        line += word;
    };
    for(auto const& p : positionals_)
        append(p.one || p.at_least > 0 ? p.value_name : "[" + p.value_name + "]");
    for(auto const& o : options_)
        if(o.required_)
            append(o.name_ + " " + o.value_name_);
    for(auto const& o : options_)
        if(!o.required_)
        {
            std::string word = o.name_;
            if(!o.value_name_.empty())
                word += " " + (o.choices_.empty() ? o.value_name_ : [&] {
                    std::string alternatives;
                    for(auto const& c : o.choices_)
                        alternatives += (alternatives.empty() ? "" : "|") + c;
                    return alternatives;
                }());
            append("[" + word + "]");
        }
    return line;
}

AGENTIO_DECL command_line::parsed command_line::parse(int argc, char const* const* argv)
{
    std::vector<std::string_view> args;
    for(int i = 1; i < argc; ++i)
        args.emplace_back(argv[i]);
    for(auto const a : args)
    {
        if(a == "--")
            break;
        if(a == "--help" || a == "-h")
            return {{}, true};
    }
    if(commands_.empty())
    {
        root_.parse(args, texts_);
        return {};
    }
    if(args.empty())
        throw usage_error(std::string(texts_.command_missing));
    for(auto& c : commands_)
        if(c.name_ == args.front())
        {
            c.parse({args.begin() + 1, args.end()}, texts_);
            return {c.name_, false};
        }
    throw usage_error(format_message(texts_.command_unknown, {{"command", args.front()}}));
}

AGENTIO_DECL std::string command_line::usage() const
{
    std::string out(texts_.usage_heading);
    out += '\n';
    auto add = [&](app::command const& c) {
        std::string const synopsis = c.synopsis();
        out += "  " + program_ + (synopsis.empty() ? "" : " " + synopsis) + "\n";
        if(!c.help_.empty())
            out += "      " + c.help_ + "\n";
        for(auto const& p : c.positionals_)
            if(!p.help.empty())
                out += "      " + p.value_name + ": " + p.help + "\n";
        for(auto const& o : c.options_)
            if(!o.help_.empty())
                out += "      " + o.name_ + (o.value_name_.empty() ? "" : " " + o.value_name_) + ": " + o.help_ + "\n";
    };
    if(commands_.empty())
        add(root_);
    for(auto const& c : commands_)
        add(c);
    if(!epilog_.empty())
        out += "\n" + epilog_ + (epilog_.ends_with('\n') ? "" : "\n");
    return out;
}

AGENTIO_DECL void read_variable(char const* name, unsigned& out, unsigned lo, unsigned hi, messages const& texts,
    environment_lookup const& lookup)
{
    auto const done = read_unsigned(name, out, lo, hi, lookup);
    if(!done)
        throw usage_error(to_string(done.error(), texts));
}

AGENTIO_DECL std::string to_string(invalid_variable const& e, messages const& texts)
{
    if(e.expected.size() == 1)
        if(auto const dots = e.expected.front().find(".."); dots != std::string::npos)
        {
            auto const& range = e.expected.front();
            auto const min = range.substr(0, dots);
            auto const max = range.substr(dots + 2);
            return format_message(texts.option_not_a_number,
                {{"option", e.variable}, {"min", min}, {"max", max}, {"value", e.value}});
        }
    std::string values;
    for(auto const& v : e.expected)
        values += (values.empty() ? "" : ", ") + v;
    return format_message(texts.option_not_one_of, {{"option", e.variable}, {"values", values}, {"value", e.value}});
}

} // namespace agentio::app

#endif
