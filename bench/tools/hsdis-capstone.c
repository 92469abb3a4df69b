/*
 * A HotSpot disassembler plugin (hsdis) on the capstone library, for JMH's -prof perfasm and
 * -XX:+PrintAssembly on JDK 25 / x86-64. A profiling aid for Weft's developers; not part of any build.
 *
 * Debian's libhsdis0-fcml exports only the old decode_instructions entry point, which JDK 9 and later
 * no longer call; the JDK ships no hsdis. This one exports decode_instructions_virtual, the entry point
 * JDK 25 looks for:
 *
 *   apt-get install libcapstone-dev
 *   gcc -O2 -shared -fPIC -o /tmp/hsdis/hsdis-amd64.so bench/tools/hsdis-capstone.c -lcapstone
 *   LD_LIBRARY_PATH=/tmp/hsdis java -jar bench/target/benchmarks.jar Fib -p system=weft -p workers=1 \
 *       -prof 'perfasm:events=cpu-clock'
 *
 * (cpu-clock: this project's VMs expose no hardware counters to perf.)
 */
#include <stdint.h>
#include <capstone/capstone.h>

typedef void* (*event_callback)(void* stream, const char* event, void* arg);
typedef int (*printf_callback)(void* stream, const char* format, ...);

void* decode_instructions_virtual(uintptr_t start_va, uintptr_t end_va, unsigned char* buffer, uintptr_t length,
                                  event_callback on_event, void* event_stream,
                                  printf_callback print, void* print_stream,
                                  const char* options, int newline) {
    csh handle;
    cs_insn* insns;
    (void) start_va;
    (void) end_va;
    (void) options;
    if (cs_open(CS_ARCH_X86, CS_MODE_64, &handle) != CS_ERR_OK) {
        return NULL;
    }
    cs_option(handle, CS_OPT_SYNTAX, CS_OPT_SYNTAX_ATT);
    cs_option(handle, CS_OPT_SKIPDATA, CS_OPT_ON);   /* keep going over embedded data */
    size_t count = cs_disasm(handle, buffer, length, (uintptr_t) buffer, 0, &insns);
    for (size_t i = 0; i < count; i++) {
        if (on_event != NULL) {
            on_event(event_stream, "insn", (void*) insns[i].address);
        }
        print(print_stream, "%s\t\t%s", insns[i].mnemonic, insns[i].op_str);
        if (on_event != NULL) {
            on_event(event_stream, "/insn", (void*) (insns[i].address + insns[i].size));
        }
        if (newline) {
            print(print_stream, "\n");
        }
    }
    if (count > 0) {
        cs_free(insns, count);
    }
    cs_close(&handle);
    return NULL;
}
