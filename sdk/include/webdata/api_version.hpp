#pragma once

namespace webdata {

/// The API version a client speaks: `webdata::Client` is v2, `webdata::v1::Client` is v1. Both
/// run on one implementation; the version only chooses the paths (`/v2/...`, `/v1/...`).
enum class ApiVersion {
  kV1,
  kV2,
};

/// "v1" or "v2": the path prefix of the version, without slashes.
constexpr const char* to_string(ApiVersion version) noexcept {
  return version == ApiVersion::kV1 ? "v1" : "v2";
}

}  // namespace webdata
