#pragma once

#include <cstddef>

namespace webdata::contract::detail {

/// One schema file compiled into the library by embed_schemas.cmake.
struct EmbeddedFile {
  const char* name;  // "v2/scrape.request"
  const unsigned char* data;
  std::size_t size;
};

extern const EmbeddedFile kEmbeddedFiles[];
extern const std::size_t kEmbeddedFileCount;

}  // namespace webdata::contract::detail
