#define BOOST_TEST_MODULE agentio http client tests
#include <boost/test/unit_test.hpp>
