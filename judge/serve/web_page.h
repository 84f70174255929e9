// SPDX-License-Identifier: MIT
#pragma once
// The web page of `judge serve` (web/index.html), compiled in by CMake (web/embed.cmake) so the
// service needs no folder of static files and no request path is ever looked up on disk.
#include <string_view>

namespace judge::serve {

std::string_view WebPage();

}  // namespace judge::serve
