// The header fields' allocator: blocks come back to their size class and serve the next
// allocation; large blocks and a full list go back to the heap; Beast's fields use it.
#include <catch2/catch.hpp>

#include <thread>
#include <vector>

#include <boost/beast/http/fields.hpp>

#include "http/recycling_allocator.hpp"

using webdata::mock::http::RecyclingAllocator;
using Lists = webdata::mock::http::detail::BlockLists;

TEST_CASE("recycling allocator: a freed block serves the next allocation of its size class",
          "[http][allocator]") {
  RecyclingAllocator<char> alloc;
  char* first = alloc.allocate(40);
  first[0] = 'x';
  first[39] = 'y';
  const std::size_t kept_before = Lists::kept();
  alloc.deallocate(first, 40);
  CHECK(Lists::kept() == kept_before + 1);
  // 33 to 48 bytes share the class of 40.
  char* again = alloc.allocate(48);
  CHECK(again == first);
  again[47] = 'z';  // the whole class is usable
  CHECK(Lists::kept() == kept_before);
  char* other = alloc.allocate(100);
  alloc.deallocate(again, 48);
  alloc.deallocate(other, 100);
  CHECK(Lists::kept() == kept_before + 2);
}

TEST_CASE("recycling allocator: large blocks and a full list go back to the heap",
          "[http][allocator]") {
  RecyclingAllocator<char> alloc;
  const std::size_t kept_before = Lists::kept();
  char* large = alloc.allocate(Lists::kLargest + 1);
  alloc.deallocate(large, Lists::kLargest + 1);
  CHECK(Lists::kept() == kept_before);

  std::vector<char*> blocks;
  for (std::size_t i = 0; i < Lists::kKeep + 10; ++i) blocks.push_back(alloc.allocate(200));
  for (char* b : blocks) alloc.deallocate(b, 200);
  CHECK(Lists::kept() <= kept_before + Lists::kKeep);
  CHECK(Lists::kept() >= Lists::kKeep);
}

TEST_CASE("recycling allocator: a block freed on another thread joins that thread's list",
          "[http][allocator]") {
  RecyclingAllocator<int> alloc;
  int* block = alloc.allocate(8);
  block[7] = 7;
  const std::size_t kept_here = Lists::kept();
  std::size_t kept_there = 0;
  std::thread other([&] {
    const std::size_t before = Lists::kept();
    alloc.deallocate(block, 8);
    kept_there = Lists::kept() - before;
    int* reused = alloc.allocate(8);  // the same block, on that thread
    CHECK(reused == block);
    alloc.deallocate(reused, 8);
  });
  other.join();
  CHECK(kept_there == 1);
  CHECK(Lists::kept() == kept_here);
}

TEST_CASE("recycling allocator: Beast's fields reuse their nodes from message to message",
          "[http][allocator]") {
  using Fields = boost::beast::http::basic_fields<RecyclingAllocator<char>>;
  auto fill = [](Fields& fields) {
    fields.insert("Content-Type", "application/json");
    fields.insert("Access-Control-Allow-Origin", "*");
    fields.insert(boost::beast::http::field::server, "webdata-mock");
    fields.insert(boost::beast::http::field::content_length, "2088");
  };
  {
    Fields warm;
    fill(warm);
  }
  const std::size_t kept = Lists::kept();
  for (int i = 0; i < 100; ++i) {
    Fields fields;
    fill(fields);
    CHECK(fields["Content-Type"] == "application/json");
    CHECK(Lists::kept() <= kept);  // nodes taken from the lists, not the heap
  }
  CHECK(Lists::kept() == kept);  // and all of them given back
}
