/* A test-only stand-in for Windows' bcryptprimitives.dll, which Wine 8 lacks.
 *
 * Rust's standard library (1.78 and later) takes its random numbers from ProcessPrng in
 * bcryptprimitives.dll; without the DLL a Rust program exits at start under Wine 8 with
 * "Library bcryptprimitives.dll ... not found". Windows 10 and later have the real DLL, so this
 * never ships: scripts/windows/test.sh builds it with mingw into the Wine prefix the tests use.
 * ProcessPrng fills the buffer and always returns TRUE; RtlGenRandom (advapi32's
 * SystemFunction036) is the older call of the same generator. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
    while (length > 0) {
        ULONG chunk = length > 0x7fffffff ? 0x7fffffff : (ULONG)length;
        if (!SystemFunction036(data, chunk)) {
            return FALSE;
        }
        data += chunk;
        length -= chunk;
    }
    return TRUE;
}
