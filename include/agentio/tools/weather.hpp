//
// agentio/tools/weather.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// `weather(location, days)`: a ready-made tool over Open-Meteo. The place is
// found by its geocoding API (a name, optionally ", country" or ", region"),
// then its forecast read (`timezone=auto`): the current temperature,
// humidity, wind and sky, and N days of maxima, minima, precipitation and
// sky. The WMO weather codes are put in words through `agentio::messages`
// (`weather_<code>`), so an application words them in its own language. A
// name that several places share is answered with the candidates; a place
// that does not exist is an answer, not an error.
//
// Data by Open-Meteo.com (CC BY 4.0 for the free API's terms of use), places
// from GeoNames.
//

#ifndef AGENTIO_TOOLS_WEATHER_HPP
#define AGENTIO_TOOLS_WEATHER_HPP

#include <agentio/config.hpp>
#include <agentio/messages.hpp>
#include <agentio/tool.hpp>
#include <agentio/tools/web_service.hpp>

#include <boost/asio/awaitable.hpp>
#include <boost/describe/class.hpp>

#include <memory>
#include <string>
#include <string_view>

namespace agentio::tools {

/// Where and how `weather` asks.
struct weather_options
{
    std::string geocoding_url = "https://geocoding-api.open-meteo.com/v1/search";
    std::string forecast_url = "https://api.open-meteo.com/v1/forecast";
    /// The language of places' names (Open-Meteo's geocoding `language`).
    std::string language = "en";
    /// The words of the weather codes (`messages::weather_<code>`).
    messages texts = {};
    /// Places do not move: a day.
    service_options geocoding = [] {
        service_options o;
        o.cache_ttl = std::chrono::hours(24);
        return o;
    }();
    /// A forecast is renewed hourly upstream: ten minutes.
    service_options forecast = {};
};

/** The words for a WMO weather code, from `texts` (`weather_unknown` for a
    code not in the table). */
AGENTIO_DECL std::string_view weather_words(int code, messages const& texts);

/// The current weather and a forecast of a place.
class weather
{
public:
    static constexpr std::string_view name = "weather";
    static constexpr std::string_view description =
        "The weather of a place now and its forecast: temperature (°C), relative humidity, wind (km/h), the sky "
        "in words, and for each day the maximum, minimum and precipitation (mm). Name the place (a city or town; "
        "add ', country' or ', region' when the name is shared, e.g. 'Santiago, Chile'). When several places "
        "share the name, it answers with them: ask again with the one meant.";

    struct args
    {
        std::string location;
        unsigned days = 3;
    };

    AGENTIO_DECL explicit weather(http::client& client, weather_options options = {});

    AGENTIO_DECL boost::asio::awaitable<tool_result> operator()(args a, tool_context& ctx) const;

    web_service const& geocoding_service() const noexcept { return geocoding_; }
    web_service const& forecast_service() const noexcept { return forecast_; }

private:
    AGENTIO_DECL boost::asio::awaitable<tool_result> report(args a, std::string traceparent) const;

    std::shared_ptr<weather_options const> options_;
    web_service geocoding_;
    web_service forecast_;
};

BOOST_DESCRIBE_STRUCT(weather::args, (), (location, days))

} // namespace agentio::tools

template<>
struct agentio::field_traits<agentio::tools::weather::args>
{
    static constexpr agentio::field_info fields[] = {
        {.name = "location",
            .description = "The place: a city or town, optionally with ', country' or ', region' (Bilbao; Santiago, "
                           "Chile; Madrid, ES)",
            .min_length = 1,
            .max_length = 200},
        {.name = "days",
            .description = "Days of forecast, today first",
            .minimum = 1,
            .maximum = 16,
            .default_value = "3"},
    };
};

#ifdef AGENTIO_HEADER_ONLY
#include <agentio/tools/impl/weather.ipp>
#endif

#endif
