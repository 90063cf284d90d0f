/* lib/efistatus.h - EFI_STATUS values by name (UEFI 2.x Appendix D,
 * "Status Codes"; values from EDK2 MdePkg/Include/Uefi/UefiBaseType.h:
 * errors have bit 63 set). Freestanding; host-tested
 * (tests/unit/test_efistatus.c). */
#ifndef LIB_EFISTATUS_H
#define LIB_EFISTATUS_H

#include <stdint.h>

#define EFI_SUCCESS 0ull
#define EFI_ERR(n) (0x8000000000000000ull | (n))
#define EFI_INVALID_PARAMETER EFI_ERR(2)
#define EFI_UNSUPPORTED EFI_ERR(3)
#define EFI_BUFFER_TOO_SMALL EFI_ERR(5)
#define EFI_NOT_READY EFI_ERR(6)
#define EFI_DEVICE_ERROR EFI_ERR(7)
#define EFI_WRITE_PROTECTED EFI_ERR(8)
#define EFI_OUT_OF_RESOURCES EFI_ERR(9)
#define EFI_VOLUME_CORRUPTED EFI_ERR(10)
#define EFI_VOLUME_FULL EFI_ERR(11)
#define EFI_NO_MEDIA EFI_ERR(12)
#define EFI_MEDIA_CHANGED EFI_ERR(13)
#define EFI_NOT_FOUND EFI_ERR(14)
#define EFI_ACCESS_DENIED EFI_ERR(15)
#define EFI_NO_MAPPING EFI_ERR(17)
#define EFI_TIMEOUT EFI_ERR(18)
#define EFI_HTTP_ERROR EFI_ERR(35)
#define EFI_CONNECTION_RESET EFI_ERR(105)   /* EFI_TCP4_PROTOCOL's, UEFI 2.x 28.1.4 */
#define EFI_CONNECTION_REFUSED EFI_ERR(106) /* EFI_TCP4_PROTOCOL's */

/* efi_status_name - "EFI_SUCCESS", "EFI_WRITE_PROTECTED", ... for the
 * status codes of Appendix D (errors 1-35, warnings 1-7) and the TCP
 * protocols' EFI_CONNECTION_FIN, _RESET, _REFUSED (104-106); 0 for any other
 * value (the caller prints it in hex). */
const char *efi_status_name(uint64_t status);

/* efi_status_meaning - what a file write's status says about the medium,
 * in a few words ("the medium is read-only (a CD, or a stick's write
 * protect switch)", "the medium is full", ...); "" when there is nothing
 * to add to the name. */
const char *efi_status_meaning(uint64_t status);

#endif
