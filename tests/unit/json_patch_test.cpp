// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// JSON Patch: the operations of RFC 6902 applied as its appendix A shows them,
// refused whole when one fails, and diff's patches giving back the document
// they were computed for, over many random documents.

// Test that header file is self-contained.
#include <agentio/json_patch.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/test/unit_test.hpp>

#include <random>
#include <string>

namespace json = boost::json;
namespace patch = agentio::json_patch;

namespace {

// The document after the patch, or "error: …".
std::string applied(std::string_view doc, std::string_view ops)
{
    json::value v = json::parse(doc);
    auto const error = patch::apply(v, json::parse(ops).as_array());
    return error.empty() ? json::serialize(v) : "error: " + error;
}

bool same(std::string const& result, std::string_view expected)
{
    return result.rfind("error", 0) != 0 && json::parse(result) == json::parse(expected);
}

// A small random document: nested objects and arrays of scalars.
json::value random_value(std::mt19937& rng, int depth)
{
    std::uniform_int_distribution<int> kind(0, depth > 0 ? 5 : 3);
    std::uniform_int_distribution<int> small(0, 4);
    switch(kind(rng))
    {
    case 0: return nullptr;
    case 1: return small(rng) % 2 == 0;
    case 2: return small(rng);
    case 3:
    {
        std::string const s(1 + small(rng), static_cast<char>('a' + small(rng)));
        return json::string(s);
    }
    case 4:
    {
        json::array a;
        for(int i = small(rng); i > 0; --i)
            a.push_back(random_value(rng, depth - 1));
        return a;
    }
    default:
    {
        json::object o;
        static char const* const keys[] = {"a", "b", "c/d", "e~f", ""};
        for(int i = small(rng); i > 0; --i)
            o[keys[small(rng)]] = random_value(rng, depth - 1);
        return o;
    }
    }
}

} // namespace

BOOST_AUTO_TEST_SUITE(json_patch)

BOOST_AUTO_TEST_CASE(the_operations_of_rfc_6902)
{
    // A.1, A.2: add to an object and into an array.
    BOOST_TEST(same(applied(R"({"foo": "bar"})", R"([{"op": "add", "path": "/baz", "value": "qux"}])"),
        R"({"baz": "qux", "foo": "bar"})"));
    BOOST_TEST(same(applied(R"({"foo": ["bar", "baz"]})", R"([{"op": "add", "path": "/foo/1", "value": "qux"}])"),
        R"({"foo": ["bar", "qux", "baz"]})"));
    // A.3, A.4: remove from an object and from an array.
    BOOST_TEST(same(applied(R"({"baz": "qux", "foo": "bar"})", R"([{"op": "remove", "path": "/baz"}])"),
        R"({"foo": "bar"})"));
    BOOST_TEST(same(applied(R"({"foo": ["bar", "qux", "baz"]})", R"([{"op": "remove", "path": "/foo/1"}])"),
        R"({"foo": ["bar", "baz"]})"));
    // A.5: replace.
    BOOST_TEST(same(applied(R"({"baz": "qux", "foo": "bar"})",
                        R"([{"op": "replace", "path": "/baz", "value": "boo"}])"),
        R"({"baz": "boo", "foo": "bar"})"));
    // A.6, A.7: move a value, move an element.
    BOOST_TEST(same(applied(R"({"foo": {"bar": "baz", "waldo": "fred"}, "qux": {"corge": "grault"}})",
                        R"([{"op": "move", "from": "/foo/waldo", "path": "/qux/thud"}])"),
        R"({"foo": {"bar": "baz"}, "qux": {"corge": "grault", "thud": "fred"}})"));
    BOOST_TEST(same(applied(R"({"foo": ["all", "grass", "cows", "eat"]})",
                        R"([{"op": "move", "from": "/foo/1", "path": "/foo/3"}])"),
        R"({"foo": ["all", "cows", "eat", "grass"]})"));
    // A.8, A.9: test, passing and failing.
    BOOST_TEST(
        same(applied(R"({"baz": "qux", "foo": ["a", 2, "c"]})",
                 R"([{"op": "test", "path": "/baz", "value": "qux"}, {"op": "test", "path": "/foo/1", "value": 2}])"),
            R"({"baz": "qux", "foo": ["a", 2, "c"]})"));
    BOOST_TEST(applied(R"({"baz": "qux"})", R"([{"op": "test", "path": "/baz", "value": "bar"}])") ==
        "error: operation 0: the value at '/baz' is not the one tested");
    // A.10: add a nested object; A.11: unknown members are ignored.
    BOOST_TEST(same(applied(R"({"foo": "bar"})", R"([{"op": "add", "path": "/child", "value": {"grandchild": {}}}])"),
        R"({"foo": "bar", "child": {"grandchild": {}}})"));
    BOOST_TEST(same(applied(R"({"foo": "bar"})", R"([{"op": "add", "path": "/baz", "value": "qux", "xyz": 123}])"),
        R"({"foo": "bar", "baz": "qux"})"));
    // A.12: adding to a nonexistent target fails.
    BOOST_TEST(applied(R"({"foo": "bar"})", R"([{"op": "add", "path": "/baz/bat", "value": "qux"}])") ==
        "error: operation 0: the parent of '/baz/bat' is not an object or an array");
    // A.14: ~ escapes; A.15: comparing strings and numbers.
    BOOST_TEST(same(applied(R"({"/": 9, "~1": 10})", R"([{"op": "test", "path": "/~01", "value": 10}])"),
        R"({"/": 9, "~1": 10})"));
    BOOST_TEST(
        applied(R"({"/": 9, "~1": 10})", R"([{"op": "test", "path": "/~01", "value": "10"}])").rfind("error", 0) == 0);
    // A.16: add an array value; the end of an array is "-"; copy.
    BOOST_TEST(same(applied(R"({"foo": ["bar"]})", R"([{"op": "add", "path": "/foo/-", "value": ["abc", "def"]}])"),
        R"({"foo": ["bar", ["abc", "def"]]})"));
    BOOST_TEST(same(applied(R"({"a": {"b": 1}})", R"([{"op": "copy", "from": "/a", "path": "/c"}])"),
        R"({"a": {"b": 1}, "c": {"b": 1}})"));
    // The whole document replaced, and added.
    BOOST_TEST(same(applied(R"({"a": 1})", R"([{"op": "replace", "path": "", "value": [1]}])"), "[1]"));
}

BOOST_AUTO_TEST_CASE(a_patch_that_fails_changes_nothing_and_says_which_operation)
{
    json::value doc = json::parse(R"({"a": [1, 2]})");
    auto const before = doc;
    auto const error = patch::apply(doc,
        json::parse(R"([{"op": "add", "path": "/b", "value": 1}, {"op": "remove", "path": "/a/7"}])").as_array());
    BOOST_TEST(error == "operation 1: the path '/a/7' names nothing");
    BOOST_TEST(doc == before);

    auto const refused = [&](std::string_view ops) { return applied(R"({"a": [1, 2]})", ops); };
    BOOST_TEST(refused(R"([{"op": "jump", "path": "/a"}])") == "error: operation 0: 'jump' is not an operation");
    BOOST_TEST(refused(R"([{"op": "add", "path": "a", "value": 1}])") ==
        "error: operation 0: 'a' is not a JSON Pointer");
    BOOST_TEST(refused(R"([{"op": "add", "path": "/a/01", "value": 1}])") ==
        "error: operation 0: '01' is not an index of the array at '/a/01'");
    BOOST_TEST(refused(R"([{"op": "add", "path": "/a/3", "value": 1}])") ==
        "error: operation 0: '3' is not an index of the array at '/a/3'");
    BOOST_TEST(refused(R"([{"op": "replace", "path": "/x", "value": 1}])") ==
        "error: operation 0: the path '/x' names nothing");
    BOOST_TEST(refused(R"([{"op": "add", "path": "/x"}])") == "error: operation 0: 'value' is missing");
    BOOST_TEST(refused(R"([{"op": "move", "from": "/a", "path": "/a/0"}])") ==
        "error: operation 0: a value cannot move into itself");
    BOOST_TEST(refused(R"([{"op": "remove", "path": ""}])") ==
        "error: operation 0: the whole document cannot be removed");
    BOOST_TEST(refused(R"([3])") == "error: operation 0: not an object");
}

BOOST_AUTO_TEST_CASE(diff_touches_only_what_changed)
{
    auto const ops = [](std::string_view a, std::string_view b) {
        return json::serialize(patch::diff(json::parse(a), json::parse(b)));
    };
    BOOST_TEST(ops(R"({"a": 1})", R"({"a": 1})") == "[]");
    BOOST_TEST(ops(R"({"a": {"b": [1, 2, 3]}, "c": 1})", R"({"a": {"b": [1, 5, 3]}, "c": 1})") ==
        R"([{"op":"replace","path":"/a/b/1","value":5}])");
    BOOST_TEST(ops(R"({"a/b": 1, "x": 2})", R"({"a/b": 2})") ==
        R"([{"op":"remove","path":"/x"},{"op":"replace","path":"/a~1b","value":2}])");
    BOOST_TEST(ops("[1, 2, 3]", "[1]") == R"([{"op":"remove","path":"/2"},{"op":"remove","path":"/1"}])");
    BOOST_TEST(ops("[1]", "[1, {}]") == R"([{"op":"add","path":"/1","value":{}}])");
    BOOST_TEST(ops(R"({"a": [1]})", R"({"a": {"0": 1}})") == R"([{"op":"replace","path":"/a","value":{"0":1}}])");
}

BOOST_AUTO_TEST_CASE(a_diff_applied_gives_the_document_it_was_computed_for)
{
    std::mt19937 rng(20261130);
    for(int i = 0; i < 2000; ++i)
    {
        json::value const from = random_value(rng, 3);
        json::value const to = random_value(rng, 3);
        json::value doc = from;
        auto const ops = patch::diff(from, to);
        auto const error = patch::apply(doc, ops);
        BOOST_TEST_REQUIRE(error == "", json::serialize(from) << " → " << json::serialize(to));
        BOOST_TEST_REQUIRE(doc == to,
            json::serialize(from) << " → " << json::serialize(to) << ": " << json::serialize(ops));
    }
}

BOOST_AUTO_TEST_SUITE_END()
