//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//

#ifndef AGENTIO_TOOLS_IMPL_WEATHER_IPP
#define AGENTIO_TOOLS_IMPL_WEATHER_IPP

#include <agentio/text.hpp>
#include <agentio/tools/detail/reading.hpp>
#include <agentio/tools/weather.hpp>

#include <boost/json.hpp>

#include <cstdio>
#include <string>
#include <vector>

namespace agentio::tools {

AGENTIO_DECL std::string_view weather_words(int code, messages const& t)
{
    switch(code)
    {
    case 0: return t.weather_0;
    case 1: return t.weather_1;
    case 2: return t.weather_2;
    case 3: return t.weather_3;
    case 45: return t.weather_45;
    case 48: return t.weather_48;
    case 51: return t.weather_51;
    case 53: return t.weather_53;
    case 55: return t.weather_55;
    case 56: return t.weather_56;
    case 57: return t.weather_57;
    case 61: return t.weather_61;
    case 63: return t.weather_63;
    case 65: return t.weather_65;
    case 66: return t.weather_66;
    case 67: return t.weather_67;
    case 71: return t.weather_71;
    case 73: return t.weather_73;
    case 75: return t.weather_75;
    case 77: return t.weather_77;
    case 80: return t.weather_80;
    case 81: return t.weather_81;
    case 82: return t.weather_82;
    case 85: return t.weather_85;
    case 86: return t.weather_86;
    case 95: return t.weather_95;
    case 96: return t.weather_96;
    case 99: return t.weather_99;
    default: return t.weather_unknown;
    }
}

namespace detail {

struct place
{
    std::string name, admin1, country, country_code, timezone;
    double latitude = 0, longitude = 0;
    double population = 0;

    std::string label() const
    {
        std::string out = name;
        if(!admin1.empty() && admin1 != name)
            out += ", " + admin1;
        if(!country.empty())
            out += ", " + country;
        else if(!country_code.empty())
            out += ", " + country_code;
        return out;
    }

    boost::json::object to_json() const
    {
        boost::json::object o{{"name", name}, {"latitude", latitude}, {"longitude", longitude}};
        if(!admin1.empty())
            o["region"] = admin1;
        if(!country.empty())
            o["country"] = country;
        if(!country_code.empty())
            o["country_code"] = country_code;
        if(!timezone.empty())
            o["timezone"] = timezone;
        return o;
    }
};

inline std::string trimmed(std::string_view s)
{
    while(!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
        s.remove_prefix(1);
    while(!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
        s.remove_suffix(1);
    return std::string(s);
}

// Open-Meteo's JSON, or why its answer is not one (an HTTP failure with its
// `{"error":true,"reason":…}`, or a body cut by an error while streaming).
inline boost::system::result<boost::json::object, std::string> meteo_answer(std::string_view what, fetched const& got)
{
    auto const& r = got.response;
    boost::system::error_code ec;
    auto v = boost::json::parse(r.body, ec);
    if(r.status != 200)
    {
        if(!ec && v.is_object() && v.as_object().contains("reason"))
            return "Open-Meteo's " + std::string(what) + " answered HTTP " + std::to_string(r.status) + ": " +
                text_at(v.as_object(), "reason");
        return describe_failure("Open-Meteo's " + std::string(what), r);
    }
    if(ec || !v.is_object())
        return "Open-Meteo's " + std::string(what) + " answer is not JSON (" +
            (ec ? ec.message() : std::string("not an object")) + ")";
    return std::move(v.as_object());
}

inline boost::json::value number_or_null(boost::json::value const* v)
{
    if(!v)
        return nullptr;
    if(auto n = number_of(*v))
        return *n;
    return nullptr;
}

inline boost::json::value at_index(boost::json::object const& daily, std::string_view key, std::size_t i)
{
    auto const* a = daily.if_contains(key);
    if(!a || !a->is_array() || i >= a->as_array().size())
        return nullptr;
    return number_or_null(&a->as_array()[i]);
}

inline std::string sky_of(boost::json::value const& code, messages const& texts)
{
    auto const n = number_of(code);
    return std::string(weather_words(n ? static_cast<int>(*n) : -1, texts));
}

inline std::string coordinate(double v)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.4f", v);
    return buffer;
}

} // namespace detail

AGENTIO_DECL weather::weather(http::client& client, weather_options options)
    : options_(std::make_shared<weather_options const>(std::move(options)))
    , geocoding_(client, "Open-Meteo geocoding", options_->geocoding)
    , forecast_(client, "Open-Meteo", options_->forecast)
{
}

AGENTIO_DECL boost::asio::awaitable<tool_result> weather::operator()(args a, tool_context& ctx) const
{
    return report(std::move(a), std::string(ctx.traceparent));
}

AGENTIO_DECL boost::asio::awaitable<tool_result> weather::report(args a, std::string traceparent) const
{
    namespace json = boost::json;
    auto const& o = *options_;
    // "Santiago, Chile": the name is searched, the rest picks among the places found.
    auto const comma = a.location.find(',');
    std::string const asked = detail::trimmed(std::string_view(a.location).substr(0, comma));
    std::string const qualifier = comma == std::string::npos
        ? std::string()
        : detail::trimmed(std::string_view(a.location).substr(comma + 1));
    if(asked.empty())
        co_return tool_result::error("location: give the name of a place (a city or town)");

    web_service geocoding = geocoding_, forecast = forecast_;
    geocoding.set_traceparent(traceparent);
    forecast.set_traceparent(traceparent);
    http::client_request find;
    find.url = o.geocoding_url + (o.geocoding_url.find('?') == std::string::npos ? "?" : "&") +
        "name=" + url_encode(asked) + "&count=10&language=" + url_encode(o.language) + "&format=json";
    auto found = co_await geocoding.fetch(find);
    if(!found)
        co_return tool_result::error(found.error());
    auto places_json = detail::meteo_answer("geocoding", *found);
    if(!places_json)
        co_return tool_result::error(places_json.error());
    if(!found->cached)
        geocoding.remember(find, found->response);

    std::vector<detail::place> places;
    // No match is an answer without `results` (empty fields are left out).
    if(auto const* results = places_json->if_contains("results"); results && results->is_array())
        for(auto const& r : results->as_array())
        {
            if(!r.is_object())
                continue;
            auto const& p = r.as_object();
            auto const lat = detail::number_at(p, "latitude"), lon = detail::number_at(p, "longitude");
            if(!lat || !lon)
                continue;
            detail::place each;
            each.name = detail::text_at(p, "name");
            each.admin1 = detail::text_at(p, "admin1");
            each.country = detail::text_at(p, "country");
            each.country_code = detail::text_at(p, "country_code");
            each.timezone = detail::text_at(p, "timezone");
            each.latitude = *lat;
            each.longitude = *lon;
            each.population = detail::number_at(p, "population").value_or(0);
            places.push_back(std::move(each));
        }
    if(!qualifier.empty())
    {
        auto const q = fold_text(qualifier);
        std::vector<detail::place> kept;
        for(auto& p : places)
            for(auto const* part : {&p.country_code, &p.country, &p.admin1})
                if(!part->empty() && fold_text(*part).starts_with(q))
                {
                    kept.push_back(p);
                    break;
                }
        if(kept.empty() && !places.empty())
        {
            json::array candidates;
            for(auto const& p : places)
                candidates.push_back(json::value(p.label()));
            auto r = tool_result::json(json::object{{"found", false}, {"location", a.location},
                {"note", "No place of that name in '" + qualifier + "'; these have it."},
                {"candidates", std::move(candidates)}});
            r.summary = "weather: no '" + asked + "' in " + qualifier;
            co_return r;
        }
        places = std::move(kept);
    }
    if(places.empty())
    {
        auto r = tool_result::json(json::object{{"found", false}, {"location", a.location}});
        r.summary = "weather: no place '" + a.location + "'";
        co_return r;
    }
    // A name several places share, none of them far larger than the next: ask.
    auto const folded = fold_text(asked);
    std::vector<detail::place const*> namesakes;
    for(auto const& p : places)
        if(fold_text(p.name) == folded)
            namesakes.push_back(&p);
    if(namesakes.size() >= 2 && namesakes[0]->population < 10 * namesakes[1]->population)
    {
        json::array candidates;
        for(auto const* p : namesakes)
            candidates.push_back(json::value(p->label()));
        auto r = tool_result::json(json::object{{"found", false}, {"ambiguous", true}, {"location", a.location},
            {"note", "Several places have this name: ask again with one of them (name, region, country)."},
            {"candidates", std::move(candidates)}});
        r.summary = "weather: '" + asked + "' is " + std::to_string(namesakes.size()) + " places";
        co_return r;
    }
    auto const& place = namesakes.empty() ? places.front() : *namesakes.front();

    http::client_request ask;
    ask.url = o.forecast_url + (o.forecast_url.find('?') == std::string::npos ? "?" : "&") +
        "latitude=" + detail::coordinate(place.latitude) + "&longitude=" + detail::coordinate(place.longitude) +
        "&current=temperature_2m,relative_humidity_2m,wind_speed_10m,weather_code"
        "&daily=weather_code,temperature_2m_max,temperature_2m_min,precipitation_sum"
        "&timezone=auto&forecast_days=" +
        std::to_string(a.days);
    auto got = co_await forecast.fetch(ask);
    if(!got)
        co_return tool_result::error(got.error());
    auto answer = detail::meteo_answer("forecast", *got);
    if(!answer)
        co_return tool_result::error(answer.error());

    json::object out{{"found", true}, {"place", place.to_json()}};
    if(auto const* zone = answer->if_contains("timezone"); zone && zone->is_string())
        out["place"].as_object()["timezone"] = *zone;
    if(auto const* current = answer->if_contains("current"); current && current->is_object())
    {
        auto const& c = current->as_object();
        json::value const code = detail::number_or_null(c.if_contains("weather_code"));
        out["now"] = json::object{{"time", detail::text_at(c, "time")},
            {"temperature_c", detail::number_or_null(c.if_contains("temperature_2m"))},
            {"humidity_percent", detail::number_or_null(c.if_contains("relative_humidity_2m"))},
            {"wind_kmh", detail::number_or_null(c.if_contains("wind_speed_10m"))}, {"weather_code", code},
            {"sky", detail::sky_of(code, o.texts)}};
    }
    json::array days;
    if(auto const* daily = answer->if_contains("daily"); daily && daily->is_object())
    {
        auto const& d = daily->as_object();
        if(auto const* dates = d.if_contains("time"); dates && dates->is_array())
            for(std::size_t i = 0; i < dates->as_array().size(); ++i)
            {
                auto const& date = dates->as_array()[i];
                json::value const code = detail::at_index(d, "weather_code", i);
                days.push_back(json::object{{"date", date.is_string() ? date : json::value(nullptr)},
                    {"max_c", detail::at_index(d, "temperature_2m_max", i)},
                    {"min_c", detail::at_index(d, "temperature_2m_min", i)},
                    {"precipitation_mm", detail::at_index(d, "precipitation_sum", i)}, {"weather_code", code},
                    {"sky", detail::sky_of(code, o.texts)}});
            }
    }
    if(!out.contains("now") && days.empty())
        co_return tool_result::error("Open-Meteo's forecast has neither 'current' nor 'daily' values");
    if(!got->cached)
        forecast.remember(ask, got->response);
    out["days"] = std::move(days);
    out["source"] = "Weather data by Open-Meteo.com";
    auto r = tool_result::json(std::move(out));
    r.summary = "weather: " + place.label();
    co_return r;
}

} // namespace agentio::tools

#endif
