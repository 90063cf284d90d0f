/* kernel/efinet.c - see efinet.h. The protocols are reduced to the
 * members used, at the offsets of UEFI 2.x and EDK2 MdePkg/Include/
 * Protocol/Http.h, Ip4Config2.h, ServiceBinding.h, PxeBaseCode.h,
 * SimpleNetwork.h, ManagedNetwork.h, checked by _Static_assert; called
 * on the firmware's state only (efi_firmware_run). */
#include <stddef.h>
#include "efinet.h"
#include "clocks.h"
#include "console.h"
#include "cpu.h"
#include "efi.h"
#include "efitypes.h"
#include "runid.h"
#include "../lib/crc32.h"
#include "../lib/efistatus.h"
#include "../lib/fmt.h"
#include "../lib/logbuf.h"
#include "../lib/record.h"
#include "../lib/sendreply.h"
#include "../lib/string.h"
#include "../lib/url.h"

static const struct efi_guid http_sb_guid = { 0xbdc8e6af, 0xd9bc, 0x4379,
					      { 0xa7, 0x2a, 0xe0, 0xc4, 0xe7, 0x5d, 0xae, 0x1c } };
static const struct efi_guid http_guid = { 0x7a59b29b, 0x910b, 0x4171,
					   { 0x82, 0x42, 0xa8, 0x5a, 0x0d, 0xf2, 0x5b, 0x5b } };
static const struct efi_guid ip4_config2_guid = { 0x5b446ed1, 0xe30b, 0x4faa,
						  { 0x87, 0x1a, 0x36, 0x54, 0xec, 0xa3, 0x60, 0x80 } };
static const struct efi_guid snp_guid = { 0xA19832B9, 0xAC25, 0x11D3,
					  { 0x9A, 0x2D, 0x00, 0x90, 0x27, 0x3F, 0xC1, 0x4D } };
static const struct efi_guid mnp_sb_guid = { 0xf36ff770, 0xa7e1, 0x42cf,
					     { 0x9e, 0xd2, 0x56, 0xf0, 0xf2, 0x71, 0xf4, 0x4c } };

struct efi_service_binding { /* EFI_SERVICE_BINDING_PROTOCOL, UEFI 2.x 11.1 */
	efi_status(EFIAPI *create_child)(struct efi_service_binding *self, efi_handle *child);
	efi_status(EFIAPI *destroy_child)(struct efi_service_binding *self, efi_handle child);
};

/* EFI_HTTP_PROTOCOL's structures, UEFI 2.x 29.6.2 (Http.h). */
#define HTTP_VERSION_11 1  /* EFI_HTTP_VERSION HttpVersion11 */
#define HTTP_METHOD_POST 1 /* EFI_HTTP_METHOD HttpMethodPost */
struct efi_httpv4_access_point {
	uint8_t use_default_address;
	uint8_t local_address[4], local_subnet[4];
	uint16_t local_port;
};
_Static_assert(offsetof(struct efi_httpv4_access_point, local_port) == 10, "EFI_HTTPv4_ACCESS_POINT layout");
struct efi_http_config_data {
	uint32_t http_version; /* EFI_HTTP_VERSION */
	uint32_t timeout_ms;   /* TimeOutMillisec */
	uint8_t local_address_is_ipv6;
	struct efi_httpv4_access_point *ipv4_node; /* AccessPoint.IPv4Node */
};
_Static_assert(offsetof(struct efi_http_config_data, ipv4_node) == 16, "EFI_HTTP_CONFIG_DATA layout");
struct efi_http_request_data {
	uint32_t method; /* EFI_HTTP_METHOD */
	uint16_t *url;   /* CHAR16 */
};
struct efi_http_response_data {
	uint32_t status_code; /* EFI_HTTP_STATUS_CODE */
};
struct efi_http_header {
	char *field_name, *field_value;
};
struct efi_http_message {
	void *data; /* Data.Request or Data.Response */
	uint64_t header_count;
	struct efi_http_header *headers;
	uint64_t body_length;
	void *body;
};
_Static_assert(offsetof(struct efi_http_message, body) == 32, "EFI_HTTP_MESSAGE layout");
struct efi_http_token {
	efi_event event;
	efi_status status;
	struct efi_http_message *message;
};
struct efi_http { /* EFI_HTTP_PROTOCOL */
	void *get_mode_data;
	efi_status(EFIAPI *configure)(struct efi_http *self, struct efi_http_config_data *config);
	efi_status(EFIAPI *request)(struct efi_http *self, struct efi_http_token *token);
	efi_status(EFIAPI *cancel)(struct efi_http *self, struct efi_http_token *token);
	efi_status(EFIAPI *response)(struct efi_http *self, struct efi_http_token *token);
	efi_status(EFIAPI *poll)(struct efi_http *self);
};
_Static_assert(offsetof(struct efi_http, poll) == 40, "EFI_HTTP_PROTOCOL layout");

/* EFI_IP4_CONFIG2_PROTOCOL, UEFI 2.x 29.5 (Ip4Config2.h). */
#define IP4_CONFIG2_DATA_TYPE_INTERFACE_INFO 0 /* Ip4Config2DataTypeInterfaceInfo */
#define IP4_CONFIG2_DATA_TYPE_POLICY 1         /* Ip4Config2DataTypePolicy */
#define IP4_CONFIG2_POLICY_DHCP 1              /* Ip4Config2PolicyDhcp */
#define IP4_CONFIG2_INFO_STATION_ADDRESS 104   /* EFI_IP4_CONFIG2_INTERFACE_INFO.StationAddress's offset:
						* Name[32] CHAR16, IfType, HwAddressSize, HwAddress[32] */
struct efi_ip4_config2 {
	efi_status(EFIAPI *set_data)(struct efi_ip4_config2 *self, uint32_t type, uint64_t size, void *data);
	efi_status(EFIAPI *get_data)(struct efi_ip4_config2 *self, uint32_t type, uint64_t *size, void *data);
};

/* EFI_PXE_BASE_CODE_PROTOCOL (UEFI 2.x 24.3): Mode after Revision and 12
 * functions; in its EFI_PXE_BASE_CODE_MODE, 17 BOOLEANs, TTL and ToS,
 * StationIp and SubnetMask (EFI_IP_ADDRESS, 16 bytes, 4-aligned), then
 * the packets of 1472 bytes: DhcpDiscover, DhcpAck, ProxyOffer; a
 * DHCPv4 packet's BootpSiAddr at 20 (RFC 2131 2, siaddr). */
#define PXE_MODE_OFFSET 104
#define PXE_DHCP_ACK_RECEIVED 9
#define PXE_PROXY_OFFER_RECEIVED 10
#define PXE_USING_IPV6 3
#define PXE_DHCP_ACK 1524
#define PXE_PROXY_OFFER 2996
#define PXE_SIADDR 20

/* EFI_HTTP_STATUS_CODE's values as numbers (Http.h's order; 308 last, as
 * EDK2 added it). */
static const uint16_t http_codes[] = { 0,   100, 101, 200, 201, 202, 203, 204, 205, 206, 300, 301, 302, 303,
				       304, 305, 307, 400, 401, 402, 403, 404, 405, 406, 407, 408, 409, 410,
				       411, 412, 413, 414, 415, 416, 417, 500, 501, 502, 503, 504, 505, 308 };

#define ANSWER_MAX 4096
#define HEADER_VALUE_MAX 32
#define WHY_MAX 480

/* The send, step by step, on the firmware's state. */
struct send_job {
	struct url url;
	int from_pxe;            /* 1: the URL is the PXE server's (no send= given) */
	const char *body;        /* the log */
	uint64_t bytes;
	uint64_t hz;             /* the TSC's rate, or 0 */
	const char *step;        /* the step that failed, or 0 */
	efi_status status;       /* its status */
	char why[WHY_MAX];       /* more words for the failure */
	int status_code;         /* the answer's HTTP status, 0 before one */
	char answer[ANSWER_MAX]; /* its body */
	uint64_t answer_bytes;
	uint64_t ticks;          /* TSC ticks of the whole send */
	int dhcp;                /* 1: DHCP was asked for, 2: and gave an address */
	uint64_t released;       /* GRUB's opens of the card closed to reach the firmware's stack */
	uint8_t address[4];      /* the card's address, when known */
};

#define FAIL(what, st)            \
	do {                      \
		j->step = (what); \
		j->status = (st); \
		goto out;         \
	} while (0)

/* A bounded wait: 1 once seconds have passed since start by the TSC, or
 * (its rate unknown) once *ms milliseconds of Stall(1000) have. */
static int waited(const struct send_job *j, uint64_t start, uint64_t seconds, uint64_t *ms)
{
	struct efi_boot_services *bs = efi_system_table()->boot_services;
	bs->stall(1000);
	++*ms;
	if (j->hz)
		return rdtsc() - start >= seconds * j->hz;
	return *ms >= seconds * 1000;
}

/* Wait until event is signalled (CheckEvent EFI_SUCCESS), calling Poll;
 * 0 when it was, EFI_TIMEOUT after seconds. */
static efi_status wait_event(struct send_job *j, struct efi_http *http, efi_event ev, uint64_t seconds)
{
	struct efi_boot_services *bs = efi_system_table()->boot_services;
	uint64_t start = rdtsc(), ms = 0;
	for (;;) {
		if (bs->check_event(ev) == EFI_SUCCESS)
			return EFI_SUCCESS;
		http->poll(http);
		if (waited(j, start, seconds, &ms))
			return bs->check_event(ev) == EFI_SUCCESS ? EFI_SUCCESS : EFI_TIMEOUT;
	}
}

/* The card's IPv4 address (EFI_IP4_CONFIG2_INTERFACE_INFO.StationAddress)
 * into j->address; 1 when it has one (not 0.0.0.0). */
static int station_address(struct send_job *j, struct efi_ip4_config2 *cfg2)
{
	static uint8_t info[512] __attribute__((aligned(8)));
	uint64_t size = sizeof info;
	if (cfg2->get_data(cfg2, IP4_CONFIG2_DATA_TYPE_INTERFACE_INFO, &size, info) != EFI_SUCCESS)
		return 0;
	memcpy(j->address, info + IP4_CONFIG2_INFO_STATION_ADDRESS, 4);
	return j->address[0] | j->address[1] | j->address[2] | j->address[3];
}

/* DHCP on the card of handle nic: Ip4Config2PolicyDhcp, then its address
 * awaited for EFINET_DHCP_WAIT_S. EFI_SUCCESS, or the failing status. */
static efi_status dhcp(struct send_job *j, efi_handle nic)
{
	struct efi_boot_services *bs = efi_system_table()->boot_services;
	struct efi_ip4_config2 *cfg2 = 0;
	efi_status s = bs->handle_protocol(nic, &ip4_config2_guid, (void **)&cfg2);
	if (s != EFI_SUCCESS || !cfg2) {
		fmt_format(j->why, sizeof j->why, "HandleProtocol(EFI_IP4_CONFIG2_PROTOCOL) of the card");
		return s ? s : EFI_UNSUPPORTED;
	}
	if (station_address(j, cfg2))
		return EFI_SUCCESS;
	uint32_t policy = IP4_CONFIG2_POLICY_DHCP;
	j->dhcp = 1;
	s = cfg2->set_data(cfg2, IP4_CONFIG2_DATA_TYPE_POLICY, sizeof policy, &policy);
	if (s != EFI_SUCCESS && s != EFI_NOT_READY) { /* EFI_NOT_READY: set, the address to come */
		fmt_format(j->why, sizeof j->why, "SetData(Ip4Config2DataTypePolicy, Ip4Config2PolicyDhcp)");
		return s;
	}
	uint64_t start = rdtsc(), ms = 0;
	while (!station_address(j, cfg2))
		if (waited(j, start, EFINET_DHCP_WAIT_S, &ms)) {
			fmt_format(j->why, sizeof j->why, "DHCP gave no address within %u s (Ip4Config2PolicyDhcp, "
				   "EFI_IP4_CONFIG2_INTERFACE_INFO.StationAddress still 0.0.0.0)", EFINET_DHCP_WAIT_S);
			return EFI_TIMEOUT;
		}
	j->dhcp = 2;
	return EFI_SUCCESS;
}

/* The handles with protocol guid (LocateHandleBuffer ByProtocol): the count,
 * *out the firmware's pool (FreePool) or NULL. */
static uint64_t handles(const struct efi_guid *guid, efi_handle **out, efi_status *st)
{
	struct efi_boot_services *bs = efi_system_table()->boot_services;
	uint64_t n = 0;
	*out = 0;
	*st = bs->locate_handle_buffer(EFI_LOCATE_BY_PROTOCOL, guid, 0, &n, out);
	if (*st != EFI_SUCCESS) {
		*out = 0;
		return 0;
	}
	return n;
}

/* ConnectController(h, NULL, NULL, TRUE) on every handle with guid; the
 * handles tried, the last failure in *st. release: first CloseProtocol(h,
 * guid, GRUB's image handle, NULL) on each, GRUB's own open of the card
 * (its efinet driver opens EFI_SIMPLE_NETWORK_PROTOCOL BY_EXCLUSIVE,
 * which stops the firmware's stack on it: UEFI 2.x 7.3 OpenProtocol);
 * *released counts those it closed. */
static uint64_t connect_all(const struct efi_guid *guid, int release, uint64_t *released, efi_status *st)
{
	struct efi_boot_services *bs = efi_system_table()->boot_services;
	efi_handle *h;
	efi_status ls;
	uint64_t n = handles(guid, &h, &ls);
	for (uint64_t i = 0; i < n; i++) {
		if (release && bs->close_protocol(h[i], guid, efi_image_handle(), 0) == EFI_SUCCESS)
			++*released;
		efi_status s = bs->connect_controller(h[i], 0, 0, 1);
		if (s != EFI_SUCCESS)
			*st = s;
	}
	if (h)
		bs->free_pool(h);
	return n;
}

/* ASCII into UCS-2 (CHAR16), NUL-terminated, cut at cap. */
static void ucs2(uint16_t *w, size_t cap, const char *s)
{
	size_t i = 0;
	for (; s[i] && i + 1 < cap; i++)
		w[i] = (uint8_t)s[i];
	w[i] = 0;
}

/* 1 when the header's name is name, in any case (RFC 9110 5.1). */
static int header_is(const char *field, const char *name)
{
	size_t i = 0;
	for (; name[i]; i++) {
		char c = field[i];
		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if (c != name[i])
			return 0;
	}
	return field[i] == '\0';
}

/* One EFI_HTTP_PROTOCOL.Response into msg (UEFI 2.x 29.6.2.5): a new
 * event in *ev (the one there before closed), the token in *tok, the
 * answer waited for EFINET_HTTP_WAIT_S seconds by the TSC (wait_event;
 * cancelled when it does not come). Returns 0, or the step that failed
 * ("CreateEvent", step, or waiting) with its EFI_STATUS in *st. */
static const char *response_part(struct send_job *j, struct efi_http *http, struct efi_http_message *msg,
				 efi_event *ev, struct efi_http_token *tok, efi_status *st, const char *step,
				 const char *waiting)
{
	struct efi_boot_services *bs = efi_system_table()->boot_services;
	if (*ev)
		bs->close_event(*ev);
	*ev = 0;
	if ((*st = bs->create_event(0, EFI_TPL_CALLBACK, 0, 0, ev)) != EFI_SUCCESS) {
		*ev = 0;
		return "CreateEvent";
	}
	*tok = (struct efi_http_token){ *ev, EFI_SUCCESS, msg };
	if ((*st = http->response(http, tok)) != EFI_SUCCESS)
		return step;
	if ((*st = wait_event(j, http, *ev, EFINET_HTTP_WAIT_S)) != EFI_SUCCESS) {
		http->cancel(http, tok);
		return waiting;
	}
	return 0;
}

static uint64_t fw_send(void *arg)
{
	struct send_job *j = arg;
	struct efi_boot_services *bs = efi_system_table()->boot_services;
	efi_handle *sb_handles = 0, child = 0;
	struct efi_service_binding *sb = 0;
	struct efi_http *http = 0;
	efi_event req_ev = 0, resp_ev = 0;
	efi_status s, ls;
	uint64_t start = rdtsc();

	bs->set_watchdog_timer(0, 0, 0, 0);
	/* 1. the card's HTTP service, its drivers connected where none is */
	uint64_t n = handles(&http_sb_guid, &sb_handles, &ls);
	if (!n) {
		efi_status cs = EFI_SUCCESS;
		uint64_t released = 0;
		uint64_t snp = connect_all(&snp_guid, 1, &released, &cs);
		uint64_t mnp = connect_all(&mnp_sb_guid, 0, &released, &cs);
		n = handles(&http_sb_guid, &sb_handles, &ls);
		if (!n) {
			char a[32];
			if (!snp && !mnp)
				fmt_format(j->why, sizeof j->why, "no network card: no handle has "
					   "EFI_SIMPLE_NETWORK_PROTOCOL or EFI_MANAGED_NETWORK_SERVICE_BINDING_PROTOCOL");
			else
				fmt_format(j->why, sizeof j->why, "none after ConnectController on the card's handles "
					   "(EFI_SIMPLE_NETWORK_PROTOCOL on %llu, EFI_MANAGED_NETWORK_SERVICE_BINDING_PROTOCOL "
					   "on %llu; %s%s): %s", (unsigned long long)snp, (unsigned long long)mnp,
					   cs == EFI_SUCCESS ? "EFI_SUCCESS" : efi_status_text(a, sizeof a, cs),
					   released ? ", after GRUB's own open of the card was closed" : "",
					   released || efi_boot_pxe()
						   ? "GRUB's network driver still holds the card (it opened "
						     "EFI_SIMPLE_NETWORK_PROTOCOL BY_EXCLUSIVE to boot from the network), "
						     "or the firmware has no HTTP driver (HttpDxe)"
						   : "the firmware has no HTTP driver (HttpDxe)");
			FAIL("LocateHandleBuffer(ByProtocol, EFI_HTTP_SERVICE_BINDING_PROTOCOL)", ls);
		}
		j->released = released;
	}
	efi_handle nic = sb_handles[0];
	if ((s = bs->handle_protocol(nic, &http_sb_guid, (void **)&sb)) != EFI_SUCCESS || !sb)
		FAIL("HandleProtocol(EFI_HTTP_SERVICE_BINDING_PROTOCOL)", s);
	if ((s = sb->create_child(sb, &child)) != EFI_SUCCESS) {
		child = 0;
		FAIL("EFI_HTTP_SERVICE_BINDING_PROTOCOL.CreateChild", s);
	}
	if ((s = bs->handle_protocol(child, &http_guid, (void **)&http)) != EFI_SUCCESS || !http)
		FAIL("HandleProtocol(EFI_HTTP_PROTOCOL) of the child", s);
	/* 2. configured: HTTP/1.1 over IPv4, the card's default address (DHCP
	 * where it has none: EFI_NO_MAPPING) */
	static struct efi_httpv4_access_point ap;
	static struct efi_http_config_data config;
	ap = (struct efi_httpv4_access_point){ .use_default_address = 1 };
	config = (struct efi_http_config_data){ .http_version = HTTP_VERSION_11,
						.timeout_ms = EFINET_HTTP_WAIT_S * 1000,
						.local_address_is_ipv6 = 0,
						.ipv4_node = &ap };
	/* the card's address first: a card no one has used yet has none (its
	 * policy static), and Request would not say EFI_NO_MAPPING everywhere */
	if ((s = dhcp(j, nic)) != EFI_SUCCESS)
		FAIL("DHCP (EFI_IP4_CONFIG2_PROTOCOL)", s);
	s = http->configure(http, &config);
	if (s == EFI_NO_MAPPING) {
		if ((s = dhcp(j, nic)) != EFI_SUCCESS)
			FAIL("DHCP (EFI_IP4_CONFIG2_PROTOCOL)", s);
		s = http->configure(http, &config);
	}
	if (s != EFI_SUCCESS)
		FAIL("EFI_HTTP_PROTOCOL.Configure", s);
	/* 3. the request */
	static uint16_t url16[URL_TEXT_MAX];
	static char host[URL_HOST_MAX + 8], length[24];
	char url[URL_TEXT_MAX];
	url_text(&j->url, 1, url, sizeof url);
	ucs2(url16, sizeof url16 / sizeof url16[0], url);
	fmt_format(host, sizeof host, "%s:%u", j->url.host, (unsigned)j->url.port);
	fmt_format(length, sizeof length, "%llu", (unsigned long long)j->bytes);
	static struct efi_http_header req_headers[4];
	req_headers[0] = (struct efi_http_header){ "Host", host };
	req_headers[1] = (struct efi_http_header){ "Content-Type", "text/plain; charset=us-ascii" };
	req_headers[2] = (struct efi_http_header){ "X-Bench-Run-Id", (char *)runid_text() };
	req_headers[3] = (struct efi_http_header){ "Content-Length", length };
	static struct efi_http_request_data req_data;
	static struct efi_http_message req_msg;
	static struct efi_http_token req;
	req_data = (struct efi_http_request_data){ HTTP_METHOD_POST, url16 };
	req_msg = (struct efi_http_message){ &req_data, 4, req_headers, j->bytes, (void *)j->body };
	if ((s = bs->create_event(0, EFI_TPL_CALLBACK, 0, 0, &req_ev)) != EFI_SUCCESS) {
		req_ev = 0;
		FAIL("CreateEvent", s);
	}
	req = (struct efi_http_token){ req_ev, EFI_SUCCESS, &req_msg };
	s = http->request(http, &req);
	if (s == EFI_NO_MAPPING && !j->dhcp) {
		if ((s = dhcp(j, nic)) != EFI_SUCCESS)
			FAIL("DHCP (EFI_IP4_CONFIG2_PROTOCOL)", s);
		s = http->request(http, &req);
	}
	if (s == EFI_CONNECTION_REFUSED || s == EFI_CONNECTION_RESET)
		fmt_format(j->why, sizeof j->why, "connection refused: nothing listens at %s port %u?", j->url.host,
			   (unsigned)j->url.port);
	if (s != EFI_SUCCESS)
		FAIL("EFI_HTTP_PROTOCOL.Request", s);
	if ((s = wait_event(j, http, req_ev, EFINET_HTTP_WAIT_S)) != EFI_SUCCESS) {
		http->cancel(http, &req);
		FAIL("EFI_HTTP_PROTOCOL.Request (sending)", s);
	}
	if (req.status != EFI_SUCCESS)
		FAIL("EFI_HTTP_PROTOCOL.Request (sending)", req.status);
	/* 4. the answer: its status and headers with the first bytes of its
	 * body, then the rest of the body, up to Content-Length */
	static struct efi_http_response_data resp_data;
	static struct efi_http_message resp_msg;
	static struct efi_http_token resp;
	resp_data = (struct efi_http_response_data){ 0 };
	resp_msg = (struct efi_http_message){ &resp_data, 0, 0, sizeof j->answer - 1, j->answer };
	const char *failed = response_part(j, http, &resp_msg, &resp_ev, &resp, &s, "EFI_HTTP_PROTOCOL.Response",
					   "EFI_HTTP_PROTOCOL.Response (waiting for the answer)");
	if (failed)
		FAIL(failed, s);
	if (resp.status != EFI_SUCCESS && resp.status != EFI_HTTP_ERROR)
		FAIL("EFI_HTTP_PROTOCOL.Response (the answer)", resp.status);
	j->status_code = resp_data.status_code < sizeof http_codes / sizeof http_codes[0]
				 ? http_codes[resp_data.status_code]
				 : 0;
	uint64_t want = 0;
	int has_length = 0;
	for (uint64_t i = 0; i < resp_msg.header_count && resp_msg.headers; i++)
		if (resp_msg.headers[i].field_name && resp_msg.headers[i].field_value &&
		    header_is(resp_msg.headers[i].field_name, "content-length"))
			has_length = sendreply_content_length(resp_msg.headers[i].field_value, &want);
	if (resp_msg.headers)
		bs->free_pool(resp_msg.headers);
	j->answer_bytes = resp_msg.body_length;
	if (has_length && want > sizeof j->answer - 1)
		want = sizeof j->answer - 1;
	while (has_length && j->answer_bytes < want) {
		resp_msg = (struct efi_http_message){ 0, 0, 0, want - j->answer_bytes, j->answer + j->answer_bytes };
		failed = response_part(j, http, &resp_msg, &resp_ev, &resp, &s, "EFI_HTTP_PROTOCOL.Response (the answer's body)",
				       "EFI_HTTP_PROTOCOL.Response (waiting for the answer's body)");
		if (failed)
			FAIL(failed, s);
		if (resp.status != EFI_SUCCESS || !resp_msg.body_length)
			FAIL("EFI_HTTP_PROTOCOL.Response (the answer's body)", resp.status);
		j->answer_bytes += resp_msg.body_length;
	}
	j->answer[j->answer_bytes] = '\0';
out:
	if (http)
		http->configure(http, 0); /* its connection closed */
	if (child)
		sb->destroy_child(sb, child);
	if (req_ev)
		bs->close_event(req_ev);
	if (resp_ev)
		bs->close_event(resp_ev);
	if (sb_handles)
		bs->free_pool(sb_handles);
	j->ticks = rdtsc() - start;
	return 0;
}

/* Without send=: the PXE server's address (EFI_PXE_BASE_CODE_PROTOCOL on
 * GRUB's loaded image's device: DhcpAck's siaddr, or ProxyOffer's), into
 * j->url; 1 when the boot came from the network and one was found. */
static uint64_t fw_pxe_server(void *arg)
{
	struct send_job *j = arg;
	const uint8_t *pxe = efi_boot_pxe();
	if (!pxe)
		return 0;
	const uint8_t *mode = *(uint8_t *const *)(pxe + PXE_MODE_OFFSET);
	if (!mode || mode[PXE_USING_IPV6])
		return 0;
	const uint8_t *si = 0;
	if (mode[PXE_PROXY_OFFER_RECEIVED] && (mode[PXE_PROXY_OFFER + PXE_SIADDR] | mode[PXE_PROXY_OFFER + PXE_SIADDR + 3]))
		si = mode + PXE_PROXY_OFFER + PXE_SIADDR;
	else if (mode[PXE_DHCP_ACK_RECEIVED])
		si = mode + PXE_DHCP_ACK + PXE_SIADDR;
	if (!si || !(si[0] | si[1] | si[2] | si[3]))
		return 0;
	j->url = (struct url){ .host_is_ipv4 = 1, .port = URL_DEFAULT_PORT, .path = "/" };
	memcpy(j->url.ipv4, si, 4);
	fmt_format(j->url.host, sizeof j->url.host, "%u.%u.%u.%u", si[0], si[1], si[2], si[3]);
	j->from_pxe = 1;
	return 1;
}

int efinet_line_expected(const struct config *cfg)
{
	if (!efi_booted() || (cfg->send[0] && !cfg->send_on))
		return 0;
	return cfg->send_on || efi_boot_pxe();
}

void efinet_send_before_final(const struct config *cfg)
{
	if (efi_booted() || !cfg->send_on)
		return;
	kprintf("send: results are sent only under UEFI (this boot is BIOS: serial, screen and QR code)\n");
}

/* seconds as "0.84" (hundredths, cut) into buf. */
static void seconds_text(char *buf, size_t size, uint64_t ticks, uint64_t hz)
{
	if (!hz) {
		fmt_format(buf, size, "?");
		return;
	}
	uint64_t cs = ticks / (hz / 100 ? hz / 100 : 1);
	fmt_format(buf, size, "%llu.%02llu", (unsigned long long)(cs / 100), (unsigned long long)(cs % 100));
}

void efinet_send(const struct config *cfg, uint64_t log_bytes)
{
	static int tried;
	static struct send_job j;
	if (!efinet_line_expected(cfg) || tried++)
		return; /* send=off, a bad URL (said at boot), no send= and no network boot, or BIOS */
	const struct logbuf *log = console_log();
	j = (struct send_job){ .body = log->buf, .bytes = log_bytes, .hz = clocks_tsc_rate()->hz };
	if (cfg->send_on)
		j.url = cfg->send_url;
	char url[URL_TEXT_MAX], why[WHY_MAX + 240] = "";
	if (!efi_on_boot_cpu()) {
		if (!cfg->send_on)
			return; /* a network boot's default: the firmware cannot be asked */
		fmt_format(why, sizeof why, "the run ended on a CPU other than the boot CPU (IA32_APIC_BASE.BSP=0), "
			   "and UEFI's boot services are the boot CPU's only");
	} else if (!cfg->send_on && !efi_firmware_run(fw_pxe_server, &j)) {
		return; /* no send= and not a network boot: nothing to say */
	} else if (log->total > log_bytes && log->kept < log->total) {
		fmt_format(why, sizeof why, "the log's RAM copy was full (%llu of its %llu bytes kept): the collector "
			   "takes only a whole log", (unsigned long long)log->kept, (unsigned long long)log->total);
	} else {
		efi_firmware_run(fw_send, &j);
	}
	url_text(&j.url, 0, url, sizeof url);
	uint32_t crc = crc32_update(0, j.body, (size_t)j.bytes);
	char secs[24], a[32];
	seconds_text(secs, sizeof secs, j.ticks, j.hz);
	struct sendreply r = { 0 };
	int json = j.answer_bytes && sendreply_parse(j.answer, (size_t)j.answer_bytes, &r);
	int stored = !why[0] && !j.step && (j.status_code == 200 || j.status_code == 201);
	int checked = stored && json && r.has_bytes && r.has_crc32 && r.bytes == j.bytes && r.crc32 == crc;
	if (!why[0] && j.step)
		fmt_format(why, sizeof why, "%s returned %s%s%s", j.step, efi_status_text(a, sizeof a, j.status),
			   j.why[0] ? ": " : "", j.why);
	else if (!why[0] && !stored)
		fmt_format(why, sizeof why, "HTTP %d: %s", j.status_code,
			   json && r.has_error ? r.error : "(the answer has no \"error\")");
	else if (stored && !checked) {
		if (!json || !r.has_bytes || !r.has_crc32)
			fmt_format(why, sizeof why, "the collector's answer has no \"bytes\" and \"crc32\" to check");
		else
			fmt_format(why, sizeof why, "the collector counted %llu bytes, CRC-32 0x%08x: not what was sent",
				   (unsigned long long)r.bytes, (unsigned)r.crc32);
	}
	const char *from = j.from_pxe ? " (the PXE server: no send= given)" : "";
	if (stored && checked)
		kprintf("send: %s%s: %llu bytes sent, %d stored (%s), CRC-32 0x%08x as sent, in %s s\n", url, from,
			(unsigned long long)j.bytes, j.status_code, r.has_stored ? r.stored : "?", (unsigned)crc, secs);
	else if (stored)
		kprintf("send: %s%s: %llu bytes sent, %d stored (%s), but NOT checked: %s; in %s s\n", url, from,
			(unsigned long long)j.bytes, j.status_code, r.has_stored ? r.stored : "?", why, secs);
	else
		kprintf("send: NOT sent: %s (to %s%s); the serial log, the screen and its QR code are as they are\n", why,
			url, from);
	if (!config_json())
		return;
	struct rec rec;
	rec_begin(&rec, "send");
	rec_str(&rec, "url", url);
	rec_u64(&rec, "bytes", j.bytes);
	rec_u64_or_null(&rec, "status", j.status_code != 0, (uint64_t)j.status_code);
	if (stored && r.has_stored)
		rec_str(&rec, "stored", r.stored);
	else
		rec_null(&rec, "stored");
	char crc_text[16];
	fmt_format(crc_text, sizeof crc_text, "0x%08x", (unsigned)crc);
	rec_str(&rec, "crc32", crc_text);
	rec_bool(&rec, "checked", checked);
	if (j.hz && j.ticks)
		rec_str(&rec, "seconds", secs);
	else
		rec_null(&rec, "seconds");
	if (why[0])
		rec_str(&rec, "why", why);
	else
		rec_null(&rec, "why");
	rec_end(&rec);
}
