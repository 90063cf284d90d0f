/* lib/efistatus.c - see efistatus.h. */
#include "efistatus.h"

static const char *const errors[] = {
	0, "EFI_LOAD_ERROR", "EFI_INVALID_PARAMETER", "EFI_UNSUPPORTED", "EFI_BAD_BUFFER_SIZE",
	"EFI_BUFFER_TOO_SMALL", "EFI_NOT_READY", "EFI_DEVICE_ERROR", "EFI_WRITE_PROTECTED",
	"EFI_OUT_OF_RESOURCES", "EFI_VOLUME_CORRUPTED", "EFI_VOLUME_FULL", "EFI_NO_MEDIA",
	"EFI_MEDIA_CHANGED", "EFI_NOT_FOUND", "EFI_ACCESS_DENIED", "EFI_NO_RESPONSE", "EFI_NO_MAPPING",
	"EFI_TIMEOUT", "EFI_NOT_STARTED", "EFI_ALREADY_STARTED", "EFI_ABORTED", "EFI_ICMP_ERROR",
	"EFI_TFTP_ERROR", "EFI_PROTOCOL_ERROR", "EFI_INCOMPATIBLE_VERSION", "EFI_SECURITY_VIOLATION",
	"EFI_CRC_ERROR", "EFI_END_OF_MEDIA", 0, 0, "EFI_END_OF_FILE", "EFI_INVALID_LANGUAGE",
	"EFI_COMPROMISED_DATA", "EFI_IP_ADDRESS_CONFLICT", "EFI_HTTP_ERROR",
};

static const char *const warnings[] = {
	"EFI_SUCCESS", "EFI_WARN_UNKNOWN_GLYPH", "EFI_WARN_DELETE_FAILURE", "EFI_WARN_WRITE_FAILURE",
	"EFI_WARN_BUFFER_TOO_SMALL", "EFI_WARN_STALE_DATA", "EFI_WARN_FILE_SYSTEM", "EFI_WARN_RESET_REQUIRED",
};

/* The TCP protocols' own errors (UEFI 2.x 28.1.4 EFI_TCP4_PROTOCOL.Connect's
 * and the EFI_TCP4_IO_TOKEN's status; EDK2 MdePkg/Include/Protocol/Tcp4.h:
 * EFIERR(104..106)), which EFI_HTTP_PROTOCOL.Request passes on. */
static const char *const tcp_errors[] = { "EFI_CONNECTION_FIN", "EFI_CONNECTION_RESET", "EFI_CONNECTION_REFUSED" };
#define TCP_ERRORS_FIRST 104

const char *efi_status_name(uint64_t status)
{
	if (status & EFI_ERR(0)) {
		uint64_t n = status & ~EFI_ERR(0);
		if (n >= TCP_ERRORS_FIRST && n < TCP_ERRORS_FIRST + sizeof tcp_errors / sizeof tcp_errors[0])
			return tcp_errors[n - TCP_ERRORS_FIRST];
		return n < sizeof errors / sizeof errors[0] ? errors[n] : 0;
	}
	return status < sizeof warnings / sizeof warnings[0] ? warnings[status] : 0;
}

const char *efi_status_meaning(uint64_t status)
{
	switch (status) {
	case EFI_WRITE_PROTECTED:
		return "the boot medium is read-only (a CD, or a stick's write-protect switch)";
	case EFI_VOLUME_FULL:
		return "the boot medium is full";
	case EFI_UNSUPPORTED:
		return "the boot device has no file system the firmware can write (a network boot?)";
	case EFI_NO_MEDIA:
		return "the boot medium is gone (the stick was pulled?)";
	case EFI_MEDIA_CHANGED:
		return "the boot medium was changed";
	case EFI_DEVICE_ERROR:
		return "the device reported an error";
	case EFI_VOLUME_CORRUPTED:
		return "the file system is damaged: check it on a laptop";
	case EFI_OUT_OF_RESOURCES:
		return "the firmware ran out of memory";
	case EFI_ACCESS_DENIED:
		return "the firmware refused the access";
	}
	return "";
}
