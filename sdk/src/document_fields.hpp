#pragma once

// The field lists of a document and its metadata, shared by the tree codec (codec_models.cpp)
// and the decoder that reads a document from its own text (document_text.cpp).
#include "codec.hpp"

namespace webdata::detail {

// The field lists of document_fields.fields.json, written as C++ by webdata_codegen.
#include "document_fields.fields.inc"

/// A metadata value kept as extras: a string, a list of strings, or any other JSON.
MetadataValue to_metadata_value(const Json& j);

}  // namespace webdata::detail
