// SPDX-License-Identifier: GPL-2.0
/*
 * Requests built by hand with libnl that no well-behaved client sends:
 * attributes of the wrong type or size, unknown attributes, flags and
 * enums out of range, trailing garbage, a cpulist as large as a netlink
 * attribute can carry.  Each is refused with an extended ACK message and
 * changes nothing (SFT_REFUSED).
 */
#include <stdio.h>

#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include "kselftest_harness.h"
#include "sftest_nl.h"

FIXTURE(raw) {
	struct cpumgr_nl *nl;
	struct sft_cpus c;
};

FIXTURE_SETUP(raw)
{
	self->nl = sft_nl_open();
	ASSERT_NE(NULL, self->nl);
	ASSERT_TRUE(sft_cpus_read(&self->c, 2));
	ASSERT_EQ(0, sft_static(self->nl));
	/* Something in the table for refusals to leave alone. */
	ASSERT_EQ(0, cpumgr_nl_assign(self->nl, "held", "c", self->c.name[1], 0,
				      NULL, NULL, NULL));
}

FIXTURE_TEARDOWN(raw)
{
	EXPECT_EQ(0, sft_reset_close(self->nl));
}

/* Room for the largest attribute netlink can carry, and more. */
#define RAW_SIZE	(256 * 1024)

static struct nl_msg *req(struct cpumgr_nl *nl, uint8_t cmd)
{
	struct nl_msg *msg = nlmsg_alloc_size(RAW_SIZE);

	if (msg && !genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ,
				cpumgr_nl_family_id(nl), 0, 0, cmd,
				CPUMGR_GENL_VERSION)) {
		nlmsg_free(msg);
		msg = NULL;
	}
	return msg;
}

/* Send and free; the library's result (-errno on refusal). */
static int send_msg(struct cpumgr_nl *nl, struct nl_msg *msg)
{
	int ret = cpumgr_nl_send_raw(nl, nlmsg_hdr(msg));

	nlmsg_free(msg);
	return ret;
}

/* An ASSIGN of a valid pod, container and CPU but for the attribute the
 * test puts itself (type < 0: none left out). */
static struct nl_msg *assign_but(struct cpumgr_nl *nl, int skip)
{
	struct nl_msg *msg = req(nl, CPUMGR_CMD_ASSIGN);

	if (skip != CPUMGR_A_POD_UID)
		nla_put_string(msg, CPUMGR_A_POD_UID, "p");
	if (skip != CPUMGR_A_CONTAINER)
		nla_put_string(msg, CPUMGR_A_CONTAINER, "c");
	if (skip != CPUMGR_A_CPUS)
		nla_put_string(msg, CPUMGR_A_CPUS, "0");
	return msg;
}

#define NL	self->nl

TEST_F(raw, u32_where_a_string_goes)
{
	struct nl_msg *m;

	/* Bytes ff ff ff ff: no NUL, nothing printable. */
	m = assign_but(NL, CPUMGR_A_CPUS);
	nla_put_u32(m, CPUMGR_A_CPUS, 0xffffffff);
	SFT_REFUSED(NL, EINVAL, send_msg(NL, m));
	/* Malformed (EINVAL) or a bad UID (EILSEQ): the header allows both
	 * readings of four bytes that are no string. */
	m = assign_but(NL, CPUMGR_A_POD_UID);
	nla_put_u32(m, CPUMGR_A_POD_UID, 0xffffffff);
	SFT_REFUSED_AS(NL, EINVAL, EILSEQ, send_msg(NL, m));
	m = assign_but(NL, CPUMGR_A_CONTAINER);
	nla_put_u64(m, CPUMGR_A_CONTAINER, 0x8080808080808080ULL);
	SFT_REFUSED_AS(NL, EINVAL, EILSEQ, send_msg(NL, m));
	m = req(NL, CPUMGR_CMD_CONFIGURE);
	nla_put_u32(m, CPUMGR_A_RESERVED_CPUS, 0xffffffff);
	SFT_REFUSED(NL, EINVAL, send_msg(NL, m));
}

TEST_F(raw, string_where_an_integer_goes)
{
	struct nl_msg *m;

	m = req(NL, CPUMGR_CMD_CONFIGURE);
	nla_put_string(m, CPUMGR_A_POLICY, "static");
	SFT_REFUSED(NL, EINVAL, send_msg(NL, m));
	m = req(NL, CPUMGR_CMD_CONFIGURE);
	nla_put_string(m, CPUMGR_A_OPTIONS, "full-pcpus-only");
	SFT_REFUSED(NL, EINVAL, send_msg(NL, m));
	m = assign_but(NL, -1);
	nla_put_string(m, CPUMGR_A_FLAGS, "init");
	SFT_REFUSED(NL, EINVAL, send_msg(NL, m));
	m = req(NL, CPUMGR_CMD_RESET);
	nla_put_string(m, CPUMGR_A_GENERATION, "1");
	SFT_REFUSED(NL, EINVAL, send_msg(NL, m));
}

TEST_F(raw, integers_of_the_wrong_size)
{
	struct nl_msg *m;

	m = req(NL, CPUMGR_CMD_RESET);
	nla_put_u32(m, CPUMGR_A_GENERATION, 1);
	SFT_REFUSED(NL, EINVAL, send_msg(NL, m));
	m = req(NL, CPUMGR_CMD_CONFIGURE);
	nla_put_u64(m, CPUMGR_A_POLICY, CPUMGR_POLICY_STATIC);
	SFT_REFUSED(NL, EINVAL, send_msg(NL, m));
	m = req(NL, CPUMGR_CMD_CONFIGURE);
	nla_put_u8(m, CPUMGR_A_OPTIONS, 0);
	SFT_REFUSED(NL, EINVAL, send_msg(NL, m));
	m = assign_but(NL, -1);
	nla_put_u16(m, CPUMGR_A_FLAGS, CPUMGR_ASSIGNMENT_F_INIT);
	SFT_REFUSED(NL, EINVAL, send_msg(NL, m));
}

TEST_F(raw, values_out_of_range)
{
	struct nl_msg *m;

	m = req(NL, CPUMGR_CMD_CONFIGURE);
	nla_put_u32(m, CPUMGR_A_POLICY, CPUMGR_POLICY_MAX + 1);
	/* No such policy: malformed, or out of range. */
	SFT_REFUSED_AS(NL, EINVAL, ERANGE, send_msg(NL, m));
	m = req(NL, CPUMGR_CMD_CONFIGURE);
	nla_put_u32(m, CPUMGR_A_OPTIONS, CPUMGR_OPT_ALL + 1);
	SFT_REFUSED(NL, EINVAL, send_msg(NL, m));
	m = assign_but(NL, -1);
	nla_put_u32(m, CPUMGR_A_FLAGS, CPUMGR_ASSIGNMENT_F_USER << 1);
	SFT_REFUSED(NL, EINVAL, send_msg(NL, m));
}

TEST_F(raw, unknown_and_reply_only_attributes)
{
	struct nl_msg *m;

	/* Strict validation: what a request may not carry is refused. */
	m = assign_but(NL, -1);
	nla_put_string(m, CPUMGR_A_SHARED_CPUS, "0");
	SFT_REFUSED(NL, EINVAL, send_msg(NL, m));
	m = assign_but(NL, -1);
	nla_put_u32(m, CPUMGR_A_MAX + 1, 1);
	SFT_REFUSED(NL, EINVAL, send_msg(NL, m));
	m = assign_but(NL, -1);
	nla_put_u64(m, CPUMGR_A_CGROUP_ID, 1);
	SFT_REFUSED(NL, EINVAL, send_msg(NL, m));
	m = req(NL, CPUMGR_CMD_RESET);
	nla_put_u32(m, 0, 0);
	SFT_REFUSED(NL, EINVAL, send_msg(NL, m));
}

TEST_F(raw, missing_attributes)
{
	struct nl_msg *m;
	struct nlattr *nest;

	SFT_REFUSED(NL, EINVAL, send_msg(NL, req(NL, CPUMGR_CMD_ASSIGN)));
	SFT_REFUSED(NL, EINVAL, send_msg(NL, req(NL, CPUMGR_CMD_RELEASE)));
	SFT_REFUSED(NL, EINVAL, send_msg(NL, req(NL, CPUMGR_CMD_BIND)));
	SFT_REFUSED(NL, EINVAL, send_msg(NL, assign_but(NL, CPUMGR_A_CPUS)));
	/* An empty entry (by hand: libnl drops empty nests). */
	m = req(NL, CPUMGR_CMD_RESTORE);
	nla_put(m, CPUMGR_A_ASSIGNMENT | NLA_F_NESTED, 0, NULL);
	SFT_REFUSED(NL, EINVAL, send_msg(NL, m));
	/* An entry without CPUs. */
	m = req(NL, CPUMGR_CMD_RESTORE);
	nest = nla_nest_start(m, CPUMGR_A_ASSIGNMENT);
	nla_put_string(m, CPUMGR_A_POD_UID, "p");
	nla_put_string(m, CPUMGR_A_CONTAINER, "c");
	nla_nest_end(m, nest);
	SFT_REFUSED(NL, EINVAL, send_msg(NL, m));
}

TEST_F(raw, malformed_nest)
{
	struct nl_msg *m;
	struct nlattr *nest;

	m = req(NL, CPUMGR_CMD_RESTORE);
	nla_put_string(m, CPUMGR_A_ASSIGNMENT, "not a nest");
	SFT_REFUSED(NL, EINVAL, send_msg(NL, m));
	m = req(NL, CPUMGR_CMD_RESTORE);
	nest = nla_nest_start(m, CPUMGR_A_ASSIGNMENT);
	nla_put_string(m, CPUMGR_A_POD_UID, "p");
	nla_put_string(m, CPUMGR_A_CONTAINER, "c");
	nla_put_u32(m, CPUMGR_A_CPUS, 0xffffffff);
	nla_nest_end(m, nest);
	SFT_REFUSED(NL, EINVAL, send_msg(NL, m));
	m = req(NL, CPUMGR_CMD_RESTORE);
	nest = nla_nest_start(m, CPUMGR_A_ASSIGNMENT);
	nla_put_string(m, CPUMGR_A_POD_UID, "p");
	nla_put_string(m, CPUMGR_A_CONTAINER, "c");
	nla_put_string(m, CPUMGR_A_CPUS, "0");
	nla_put_u64(m, CPUMGR_A_GENERATION, 1);
	nla_nest_end(m, nest);
	SFT_REFUSED(NL, EINVAL, send_msg(NL, m));
}

TEST_F(raw, trailing_garbage)
{
	static const char junk[3] = { 1, 2, 3 };
	struct nl_msg *m = assign_but(NL, -1);

	ASSERT_EQ(0, nlmsg_append(m, (void *)junk, sizeof(junk), 0));
	SFT_REFUSED(NL, EINVAL, send_msg(NL, m));
}

TEST_F(raw, cpulists)
{
	static const char *const bad[] = { "3-1", "a", ",,", "1," };
	struct nl_msg *m;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		m = assign_but(NL, CPUMGR_A_CPUS);
		nla_put_string(m, CPUMGR_A_CPUS, bad[i]);
		TH_LOG("\"%s\"", bad[i]);
		SFT_REFUSED(NL, EINVAL, send_msg(NL, m));
	}
	m = assign_but(NL, CPUMGR_A_CPUS);
	nla_put_string(m, CPUMGR_A_CPUS, "0-99999");
	SFT_REFUSED(NL, ERANGE, send_msg(NL, m));
}

/*
 * The largest attribute netlink can carry: nla_len is 16 bits, so 65531
 * bytes of payload, "0,0,...,0" and its NUL.  Twice the cpulist limit:
 * the policy refuses it (-EINVAL).
 */
TEST_F(raw, cpulist_of_64k)
{
	size_t len = 65535 - NLA_HDRLEN;
	char *list = malloc(len);
	struct nl_msg *m;

	ASSERT_NE(NULL, list);
	for (size_t i = 0; i < len - 1; i++)
		list[i] = i % 2 ? ',' : '0';
	list[len - 2] = '0';
	list[len - 1] = '\0';
	m = assign_but(NL, CPUMGR_A_CPUS);
	ASSERT_EQ(0, nla_put(m, CPUMGR_A_CPUS, len, list));
	SFT_REFUSED(NL, EINVAL, send_msg(NL, m));
	m = req(NL, CPUMGR_CMD_CONFIGURE);
	ASSERT_EQ(0, nla_put(m, CPUMGR_A_RESERVED_CPUS, len, list));
	SFT_REFUSED(NL, EINVAL, send_msg(NL, m));
	free(list);
}

TEST_HARNESS_MAIN
