/* kernel/efitypes.h - the UEFI structures more than one room calls the
 * firmware through (kernel/efi.c: files, memory, the timer; kernel/
 * efinet.c: the network), reduced to the members used, at the offsets of
 * UEFI 2.x (EDK2 MdePkg/Include/Uefi/UefiSpec.h, Uefi/UefiBaseType.h),
 * checked by _Static_assert. Every call goes through the firmware's
 * function pointers with the Microsoft x64 convention (UEFI 2.x 2.3.4.2;
 * GCC's ms_abi attribute), on the firmware's state only (kernel/efi.h
 * efi_firmware_run). */
#ifndef KERNEL_EFITYPES_H
#define KERNEL_EFITYPES_H

#include <stddef.h>
#include <stdint.h>

#define EFIAPI __attribute__((ms_abi))
typedef uint64_t efi_status; /* EFI_STATUS: lib/efistatus.h names them */
typedef void *efi_handle;    /* EFI_HANDLE */
typedef void *efi_event;     /* EFI_EVENT */

struct efi_guid { /* EFI_GUID, UEFI 2.x Appendix A */
	uint32_t a;
	uint16_t b, c;
	uint8_t d[8];
};

/* LocateHandleBuffer's EFI_LOCATE_SEARCH_TYPE (UEFI 2.x 7.3). */
#define EFI_LOCATE_BY_PROTOCOL 2
/* CreateEvent's TPL (UEFI 2.x 7.1 "Task Priority Levels"). */
#define EFI_TPL_CALLBACK 8

struct efi_boot_services { /* EFI_BOOT_SERVICES, 4.4 */
	uint8_t hdr[24];
	void *raise_tpl, *restore_tpl;
	efi_status(EFIAPI *allocate_pages)(uint32_t type, uint32_t memory_type, uint64_t pages, uint64_t *addr);
	void *free_pages;
	efi_status(EFIAPI *get_memory_map)(uint64_t *size, void *map, uint64_t *key, uint64_t *desc_size,
					   uint32_t *desc_version);
	efi_status(EFIAPI *allocate_pool)(uint32_t pool_type, uint64_t size, void **buffer);
	efi_status(EFIAPI *free_pool)(void *buffer);
	efi_status(EFIAPI *create_event)(uint32_t type, uint64_t notify_tpl, void *notify_function, void *notify_context,
					 efi_event *event);
	void *set_timer, *wait_for_event, *signal_event;
	efi_status(EFIAPI *close_event)(efi_event event);
	efi_status(EFIAPI *check_event)(efi_event event);
	void *install_protocol, *reinstall_protocol, *uninstall_protocol;
	efi_status(EFIAPI *handle_protocol)(efi_handle handle, const struct efi_guid *guid, void **iface);
	void *reserved, *register_protocol_notify, *locate_handle, *locate_device_path, *install_config_table;
	void *load_image, *start_image, *exit, *unload_image, *exit_boot_services;
	void *get_next_monotonic_count;
	efi_status(EFIAPI *stall)(uint64_t microseconds);
	efi_status(EFIAPI *set_watchdog_timer)(uint64_t timeout_s, uint64_t code, uint64_t data_size, uint16_t *data);
	efi_status(EFIAPI *connect_controller)(efi_handle controller, efi_handle *driver_image, void *remaining_path,
					       uint8_t recursive);
	void *disconnect_controller, *open_protocol;
	efi_status(EFIAPI *close_protocol)(efi_handle handle, const struct efi_guid *protocol, efi_handle agent,
					   efi_handle controller);
	void *open_protocol_info;
	void *protocols_per_handle;
	efi_status(EFIAPI *locate_handle_buffer)(uint32_t search_type, const struct efi_guid *protocol, void *search_key,
						 uint64_t *count, efi_handle **buffer);
	efi_status(EFIAPI *locate_protocol)(const struct efi_guid *guid, void *registration, void **iface);
};
_Static_assert(offsetof(struct efi_boot_services, allocate_pages) == 40 &&
		       offsetof(struct efi_boot_services, get_memory_map) == 56 &&
		       offsetof(struct efi_boot_services, free_pool) == 72 &&
		       offsetof(struct efi_boot_services, create_event) == 80 &&
		       offsetof(struct efi_boot_services, close_event) == 112 &&
		       offsetof(struct efi_boot_services, check_event) == 120 &&
		       offsetof(struct efi_boot_services, handle_protocol) == 152 &&
		       offsetof(struct efi_boot_services, stall) == 248 &&
		       offsetof(struct efi_boot_services, set_watchdog_timer) == 256 &&
		       offsetof(struct efi_boot_services, connect_controller) == 264 &&
		       offsetof(struct efi_boot_services, close_protocol) == 288 &&
		       offsetof(struct efi_boot_services, locate_handle_buffer) == 312 &&
		       offsetof(struct efi_boot_services, locate_protocol) == 320,
	       "EFI_BOOT_SERVICES layout");

struct efi_system_table { /* EFI_SYSTEM_TABLE, 4.3 */
	uint64_t signature;
	uint32_t revision, header_size, crc32, reserved;
	const uint16_t *firmware_vendor;
	uint32_t firmware_revision;
	void *con_in_handle, *con_in, *con_out_handle;
	struct {
		void *reset;
		efi_status(EFIAPI *output_string)(void *self, const uint16_t *s);
	} *con_out;
	void *stderr_handle, *stderr_out, *runtime_services;
	struct efi_boot_services *boot_services;
};
_Static_assert(offsetof(struct efi_system_table, con_out) == 64 &&
		       offsetof(struct efi_system_table, boot_services) == 96,
	       "EFI_SYSTEM_TABLE layout");
#define EFI_SYSTEM_TABLE_SIGNATURE 0x5453595320494249ull /* "IBI SYST" */

#endif
