/* kernel/efinet.h - send=URL (README "Sending the results", issue 33):
 * after the final line and the save, under UEFI, the run's log POSTed to
 * a collector through the firmware's own network stack (UEFI 2.x 29.6
 * "EFI HTTP Protocols" on 11.1 EFI_SERVICE_BINDING_PROTOCOL; IPv4 by
 * DHCP through 29.5 EFI_IP4_CONFIG2_PROTOCOL where the card has no address
 * yet), and the collector's answer checked against the log's own size and
 * CRC-32 (docs/MACHINE.md "UEFI: the network stack"). */
#ifndef KERNEL_EFINET_H
#define KERNEL_EFINET_H

#include <stdint.h>
#include "config.h"

/* How long the send waits, by the TSC (the firmware's Stall counting
 * milliseconds where the TSC's rate is unknown): for DHCP to give the card
 * an address, and for each of the request and the answer. Seconds. */
#define EFINET_DHCP_WAIT_S 10
#define EFINET_HTTP_WAIT_S 20

/* efinet_send_before_final - before the final line: a BIOS boot (or a
 * loader that ended the boot services) with send= given prints its one
 * line, "send: results are sent only under UEFI ...", so that the final
 * line stays last there; nothing with send=off, without send=, or under
 * UEFI (efinet_send says it after the final line). */
void efinet_send_before_final(const struct config *cfg);

/* efinet_line_expected - 1 when efinet_send will print its send: line:
 * under UEFI with send= a URL, or without send= after a network boot
 * (kernel/efi.h efi_boot_pxe); for the end screen's rows (bench/screen.c). */
int efinet_line_expected(const struct config *cfg);

/* The longest send: line, in characters, with room to spare: "NOT sent"
 * with its reason (up to 440: the step, the status, the words) and URL
 * (URL_TEXT_MAX), or a sent line with its "NOT checked" reason. */
#define EFINET_SEND_LINE_MAX 1000

/* efinet_send - after the final line and the save (bench/finish.c): under
 * UEFI, on the boot CPU, with send= a URL (or, without send=, after a
 * network boot: the DHCP server that booted it, EFI_PXE_BASE_CODE_PROTOCOL
 * .Mode's DhcpAck siaddr (ProxyOffer's where a proxy answered) on GRUB's
 * loaded image's device, port URL_DEFAULT_PORT, path /), POSTs the log's
 * first log_bytes bytes (console_log(): the log up to and including the
 * final line), with Content-Type text/plain; charset=us-ascii,
 * X-Bench-Run-Id (kernel/runid.h) and Content-Length, through the
 * firmware (kernel/efi.h efi_firmware_run): EFI_HTTP_SERVICE_BINDING_
 * PROTOCOL located (LocateHandleBuffer ByProtocol; when none, every
 * handle with EFI_SIMPLE_NETWORK_PROTOCOL or EFI_MANAGED_NETWORK_SERVICE_
 * BINDING_PROTOCOL connected, ConnectController(h, NULL, NULL, TRUE), after
 * closing GRUB's own BY_EXCLUSIVE open of the card (CloseProtocol with
 * GRUB's image handle: its network driver holds the card after a network
 * boot), and again), CreateChild, EFI_HTTP_PROTOCOL.Configure (HttpVersion11,
 * IPv4, UseDefaultAddress), DHCP where Configure or Request says
 * EFI_NO_MAPPING (Ip4Config2DataTypePolicy Ip4Config2PolicyDhcp, then
 * Ip4Config2DataTypeInterfaceInfo polled for EFINET_DHCP_WAIT_S), Request,
 * Response (each token's event polled with CheckEvent and Poll, for
 * EFINET_HTTP_WAIT_S), DestroyChild. Then one "send:" line (the URL, the
 * bytes, the HTTP status, the collector's stored answer, its CRC-32 and
 * byte count checked against the kernel's, the seconds by the TSC; or
 * "NOT sent: " and the step that failed with its EFI_STATUS by name, or
 * the collector's status and "error") and, with records on, one "send"
 * record (docs/RECORDS.md). Nothing without send= after a boot not from
 * the network, or with send=off; a BIOS boot said it before the final
 * line. Once per boot. */
void efinet_send(const struct config *cfg, uint64_t log_bytes);

#endif
