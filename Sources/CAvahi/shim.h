// avahi's client API as one header. Publishing goes through the `_strlst` functions because
// Swift cannot call the variadic `avahi_entry_group_add_service`, so no C shim code is needed.
#ifndef AIRLAB_CAVAHI_SHIM_H
#define AIRLAB_CAVAHI_SHIM_H

#include <avahi-client/client.h>
#include <avahi-client/lookup.h>
#include <avahi-client/publish.h>
#include <avahi-common/address.h>
#include <avahi-common/alternative.h>
#include <avahi-common/error.h>
#include <avahi-common/malloc.h>
#include <avahi-common/strlst.h>
#include <avahi-common/thread-watch.h>

#endif
