// What ffmpeg.c, curl.c, microhttpd.c and crypto.c share: the forwarding functions and the loading
// behind them.
//
// Linked directly, a library and everything it needs are mapped and relocated by the dynamic loader
// before main, whether the process uses them or not: FFmpeg brings about a hundred libraries (the
// codecs' own), libcurl thirty (TLS, Kerberos, LDAP, SSH, ...), libmicrohttpd GnuTLS and a dozen
// more, and GnuTLS and libcrypto initialise themselves as they load: together most of the start-up
// time of an `airlab --help` that uses none of them. So the binaries do not link them. Each function
// the Swift code calls is defined here with the prototype of the library's own header (the compiler
// checks the two agree) and forwards to the real one, found with dlopen and dlsym the first time any
// function of that library is called.
#ifndef AIRLAB_CONDEMAND_LOADER_H
#define AIRLAB_CONDEMAND_LOADER_H

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define ONDEMAND_STRINGIFY_(x) #x
#define ONDEMAND_STRINGIFY(x) ONDEMAND_STRINGIFY_(x)

/// What one library group's loading left: its failure, NULL once everything was found.
struct ondemand_state {
    pthread_once_t once;
    const char *failure;
    char message[512];
};

/// Opens `count` libraries in order, each able to need the ones before it; the last one's handle,
/// whose lookups also search its dependencies, or NULL with the failure recorded.
static inline void *ondemand_open(struct ondemand_state *state, const char *const *names, int count) {
    void *handle = NULL;
    for (int index = 0; index < count; index++) {
        handle = dlopen(names[index], RTLD_NOW | RTLD_LOCAL);
        if (!handle) {
            snprintf(state->message, sizeof state->message, "%s cannot be loaded: %s", names[index], dlerror());
            state->failure = state->message;
            return NULL;
        }
    }
    return handle;
}

/// Looks `name` up in `handle` (never this binary's own forwarding function of that name); false, with
/// the failure recorded, when the library lacks it.
static inline int ondemand_resolve(struct ondemand_state *state, void *handle, const char *library, const char *name, void **pointer) {
    *pointer = dlsym(handle, name);
    if (!*pointer) {
        snprintf(state->message, sizeof state->message, "%s has no function %s", library, name);
        state->failure = state->message;
        return 0;
    }
    return 1;
}

/// Before a forwarding call: a function called although loading failed has nothing it could return,
/// so it says why and ends the process. The Swift side asks for the failure first, so this is a
/// programming error, never a user's.
static inline void ondemand_require(struct ondemand_state *state, void (*load)(void)) {
    pthread_once(&state->once, load);
    if (state->failure) {
        fprintf(stderr, "airlab: %s\n", state->failure);
        abort();
    }
}

// The table of real functions and the forwarding definitions, from a list of
// X(return type, name, parameters, arguments) and one of P(name, parameters, arguments) for the
// functions that return nothing.
#define ONDEMAND_POINTER(type, name, parameters, arguments) type (*name) parameters;
#define ONDEMAND_PROCEDURE_POINTER(name, parameters, arguments) void (*name) parameters;
#define ONDEMAND_FORWARD(state, load, table, type, name, parameters, arguments) \
    type name parameters { \
        ondemand_require(&state, load); \
        return table.name arguments; \
    }
#define ONDEMAND_FORWARD_PROCEDURE(state, load, table, name, parameters, arguments) \
    void name parameters { \
        ondemand_require(&state, load); \
        table.name arguments; \
    }


// Everything else one library group needs, from its three lists (X-macros as above; VARIADIC lists
// X(return type, name, parameters) for the functions the file forwards by hand, ONDEMAND_NONE when
// there are none) and `libraries`, the array of sonames the file defines first, in load order.
// Defines the table `real`, the `state`, `load()` (which resolves every name from the last library's
// handle), `failure_function()` for the Swift side, and a forwarding definition of each function of
// the first two lists.
#define ONDEMAND_NONE(X)
#define ONDEMAND_VARIADIC_POINTER(type, name, parameters) type (*name) parameters;
#define ONDEMAND_RESOLVE(type, name, parameters, arguments) \
    if (!ondemand_resolve(&state, handle, libraries[ONDEMAND_COUNT(libraries) - 1], #name, (void **)&real.name)) return;
#define ONDEMAND_RESOLVE_PROCEDURE(name, parameters, arguments) ONDEMAND_RESOLVE(void, name, parameters, arguments)
#define ONDEMAND_RESOLVE_VARIADIC(type, name, parameters) ONDEMAND_RESOLVE(type, name, parameters, ())
#define ONDEMAND_FORWARD_HERE(type, name, parameters, arguments) ONDEMAND_FORWARD(state, load, real, type, name, parameters, arguments)
#define ONDEMAND_FORWARD_PROCEDURE_HERE(name, parameters, arguments) \
    ONDEMAND_FORWARD_PROCEDURE(state, load, real, name, parameters, arguments)
#define ONDEMAND_COUNT(array) ((int)(sizeof(array) / sizeof((array)[0])))
#define ONDEMAND_LIBRARY(FUNCTIONS, PROCEDURES, VARIADIC, failure_function) \
    static struct { \
        FUNCTIONS(ONDEMAND_POINTER) \
        PROCEDURES(ONDEMAND_PROCEDURE_POINTER) \
        VARIADIC(ONDEMAND_VARIADIC_POINTER) \
    } real; \
    static struct ondemand_state state = {PTHREAD_ONCE_INIT, NULL, {0}}; \
    static void load(void) { \
        void *handle = ondemand_open(&state, libraries, ONDEMAND_COUNT(libraries)); \
        if (!handle) return; \
        FUNCTIONS(ONDEMAND_RESOLVE) \
        PROCEDURES(ONDEMAND_RESOLVE_PROCEDURE) \
        VARIADIC(ONDEMAND_RESOLVE_VARIADIC) \
    } \
    const char *failure_function(void) { \
        pthread_once(&state.once, load); \
        return state.failure; \
    } \
    FUNCTIONS(ONDEMAND_FORWARD_HERE) \
    PROCEDURES(ONDEMAND_FORWARD_PROCEDURE_HERE)

#endif
