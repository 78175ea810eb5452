// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// What the tests that look at spans share: a tracer that records every
// span, an attribute as text, a span found by name, and the finished spans.
#pragma once

#include <agentio/trace.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace agentio_test {

/// Settings of a tracer that records every span (nothing is exported: the tests take them).
inline agentio::trace::settings tracing_on(std::string service_name = "agentio-tests")
{
    agentio::trace::settings s;
    s.enabled = true;
    s.service_name = std::move(service_name);
    s.sampler = agentio::trace::sampler::always_on;
    return s;
}

/// An attribute's value as text (a list: its first item); empty when absent.
inline std::string attribute_text(agentio::trace::span_data const& span, std::string_view key)
{
    for(auto const& a : span.attributes)
        if(a.key == key)
        {
            if(auto const* text = std::get_if<std::string>(&a.value))
                return *text;
            if(auto const* n = std::get_if<std::int64_t>(&a.value))
                return std::to_string(*n);
            if(auto const* list = std::get_if<std::vector<std::string>>(&a.value))
                return list->empty() ? std::string() : list->front();
            return "?";
        }
    return {};
}

/// The `nth` span called `name`, or null.
inline agentio::trace::span_data const* span_named(std::vector<agentio::trace::span_data> const& spans,
    std::string_view name, std::size_t nth = 0)
{
    for(auto const& s : spans)
        if(s.name == name && nth-- == 0)
            return &s;
    return nullptr;
}

/// The spans `tracer` has finished and not yet handed out, oldest first.
inline std::vector<agentio::trace::span_data> finished_spans(agentio::trace::tracer& tracer)
{
    std::vector<agentio::trace::span_data> out;
    tracer.take(out, 100000);
    return out;
}

} // namespace agentio_test
