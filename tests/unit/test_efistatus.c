/* tests/unit/test_efistatus.c - lib/efistatus.c: EFI_STATUS names against
 * UEFI 2.x Appendix D's numbers (EDK2 UefiBaseType.h), unknown values,
 * warnings, and the meanings the save line adds. */
#include <stdint.h>
#include <string.h>
#include "check.h"
#include "../../lib/efistatus.h"

int main(void)
{
	CHECK_STR(efi_status_name(EFI_SUCCESS), "EFI_SUCCESS", "0 is EFI_SUCCESS");
	CHECK_STR(efi_status_name(0x8000000000000008ull), "EFI_WRITE_PROTECTED", "error 8");
	CHECK_STR(efi_status_name(0x800000000000000Bull), "EFI_VOLUME_FULL", "error 11");
	CHECK_STR(efi_status_name(0x8000000000000003ull), "EFI_UNSUPPORTED", "error 3");
	CHECK_STR(efi_status_name(0x800000000000000Eull), "EFI_NOT_FOUND", "error 14");
	CHECK_STR(efi_status_name(0x800000000000000Full), "EFI_ACCESS_DENIED", "error 15");
	CHECK_STR(efi_status_name(0x800000000000001Full), "EFI_END_OF_FILE", "error 31");
	CHECK_STR(efi_status_name(0x8000000000000023ull), "EFI_HTTP_ERROR", "error 35, the last");
	CHECK_STR(efi_status_name(EFI_CONNECTION_REFUSED), "EFI_CONNECTION_REFUSED", "TCP's error 106");
	CHECK_STR(efi_status_name(EFI_ERR(104)), "EFI_CONNECTION_FIN", "TCP's error 104");
	CHECK(efi_status_name(EFI_ERR(103)) == 0 && efi_status_name(EFI_ERR(107)) == 0,
	      "no name just outside TCP's three");
	CHECK(efi_status_name(0x8000000000000024ull) == 0, "error 36: unknown");
	CHECK(efi_status_name(0x800000000000001Dull) == 0, "error 29: no name in Appendix D");
	CHECK(efi_status_name(0x8000000000000000ull) == 0, "error 0: not a status");
	CHECK_STR(efi_status_name(4), "EFI_WARN_BUFFER_TOO_SMALL", "warning 4");
	CHECK(efi_status_name(8) == 0, "warning 8: unknown");
	CHECK(efi_status_name(0xA000000000000001ull) == 0, "an OEM error: unknown");
	CHECK(strstr(efi_status_meaning(EFI_WRITE_PROTECTED), "read-only") != 0, "write-protected says read-only");
	CHECK(strstr(efi_status_meaning(EFI_VOLUME_FULL), "full") != 0, "volume full says full");
	CHECK_STR(efi_status_meaning(EFI_SUCCESS), "", "success: nothing to add");
	CHECK_STR(efi_status_meaning(EFI_BUFFER_TOO_SMALL), "", "an internal status: nothing to add");
	return check_summary("efistatus");
}
