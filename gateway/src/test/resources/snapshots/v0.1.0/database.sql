--
-- PostgreSQL database dump
--

\restrict AQKrbhp7ZThMyBlClh3pQ3B9BaUHIJT4OcLSP8DlcfZc8Yf6464TQ9TZGVoJGiQ

-- Dumped from database version 15.18 (Debian 15.18-0+deb12u1)
-- Dumped by pg_dump version 15.18 (Debian 15.18-0+deb12u1)

SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

--
-- Name: audit_refuse_change(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.audit_refuse_change() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
      BEGIN
        RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP
          USING ERRCODE = 'insufficient_privilege';
      END
      $$;


SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: algorithm_versions; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.algorithm_versions (
    team character varying(63) NOT NULL,
    name character varying(63) NOT NULL,
    version integer NOT NULL,
    definition_json text NOT NULL,
    definition_hash character(64) NOT NULL,
    status character varying(16) NOT NULL,
    published_by character varying(255) NOT NULL,
    published_at timestamp with time zone NOT NULL
);


--
-- Name: algorithms; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.algorithms (
    team character varying(63) NOT NULL,
    name character varying(63) NOT NULL,
    description text,
    visibility character varying(16) NOT NULL,
    default_version integer,
    created_by character varying(255) NOT NULL,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL
);


--
-- Name: audit_digests; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.audit_digests (
    from_seq bigint NOT NULL,
    to_seq bigint NOT NULL,
    last_hash character(64) NOT NULL,
    previous_signature character varying(128),
    signed_at timestamp with time zone NOT NULL,
    key_id character(64) NOT NULL,
    signature character varying(128) NOT NULL
);


--
-- Name: audit_events; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.audit_events (
    seq bigint NOT NULL,
    event_time timestamp with time zone NOT NULL,
    actor_subject character varying(255),
    actor_username character varying(255),
    actor_client character varying(255),
    actor_source_ip character varying(64),
    actor_request_id character varying(64),
    action character varying(64) NOT NULL,
    resource character varying(255) NOT NULL,
    outcome character varying(16) NOT NULL,
    team character varying(128),
    backend character varying(128),
    details text NOT NULL,
    event_hash character(64) NOT NULL,
    hash character(64) NOT NULL
);


--
-- Name: audit_head; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.audit_head (
    id integer NOT NULL,
    last_seq bigint NOT NULL,
    last_hash character(64) NOT NULL
);


--
-- Name: audit_leases; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.audit_leases (
    name character varying(64) NOT NULL,
    lease_owner character varying(255),
    lease_until timestamp with time zone,
    last_done character varying(64)
);


--
-- Name: databasechangelog; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.databasechangelog (
    id character varying(255) NOT NULL,
    author character varying(255) NOT NULL,
    filename character varying(255) NOT NULL,
    dateexecuted timestamp without time zone NOT NULL,
    orderexecuted integer NOT NULL,
    exectype character varying(10) NOT NULL,
    md5sum character varying(35),
    description character varying(255),
    comments character varying(255),
    tag character varying(255),
    liquibase character varying(20),
    contexts character varying(255),
    labels character varying(255),
    deployment_id character varying(10)
);


--
-- Name: databasechangeloglock; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.databasechangeloglock (
    id integer NOT NULL,
    locked boolean NOT NULL,
    lockgranted timestamp without time zone,
    lockedby character varying(255)
);


--
-- Name: idempotency_keys; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.idempotency_keys (
    team character varying(128) NOT NULL,
    subject character varying(255) NOT NULL,
    idem_key character varying(255) NOT NULL,
    spec_hash character(64) NOT NULL,
    job_id character varying(26) NOT NULL,
    created_at timestamp with time zone NOT NULL
);


--
-- Name: job_events; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.job_events (
    seq bigint NOT NULL,
    job_id character varying(26) NOT NULL,
    at timestamp with time zone NOT NULL,
    type character varying(32) NOT NULL,
    message text
);


--
-- Name: job_events_seq_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.job_events ALTER COLUMN seq ADD GENERATED BY DEFAULT AS IDENTITY (
    SEQUENCE NAME public.job_events_seq_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: job_metrics; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.job_metrics (
    job_id character varying(26) NOT NULL,
    name character varying(128) NOT NULL,
    point_key character varying(48) NOT NULL,
    step bigint,
    epoch bigint,
    metric_value double precision NOT NULL,
    at timestamp with time zone NOT NULL,
    source character varying(8) NOT NULL
);


--
-- Name: jobs; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.jobs (
    id character varying(26) NOT NULL,
    team character varying(128) NOT NULL,
    owner_subject character varying(255) NOT NULL,
    owner_username character varying(255) NOT NULL,
    name character varying(253) NOT NULL,
    live_name character varying(253),
    state character varying(16) NOT NULL,
    attempt integer NOT NULL,
    spec_json text NOT NULL,
    spec_hash character(64) NOT NULL,
    decision_json text NOT NULL,
    offer_index integer NOT NULL,
    backend_id character varying(128),
    external_ref_json text,
    hourly_usd numeric(18,6),
    estimated_usd numeric(18,6),
    reason text,
    restarts integer DEFAULT 0 NOT NULL,
    cancel_requested boolean DEFAULT false NOT NULL,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    submitted_at timestamp with time zone,
    started_at timestamp with time zone,
    ended_at timestamp with time zone,
    lease_owner character varying(255),
    lease_until timestamp with time zone,
    version bigint DEFAULT 0 NOT NULL
);


--
-- Name: metric_tokens; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.metric_tokens (
    token_hash character(64) NOT NULL,
    job_id character varying(26) NOT NULL,
    attempt integer NOT NULL,
    created_at timestamp with time zone NOT NULL
);


--
-- Name: queue_dispatch; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.queue_dispatch (
    id integer NOT NULL,
    lease_owner character varying(255),
    lease_until timestamp with time zone,
    wanted_at timestamp with time zone,
    passed_at timestamp with time zone,
    passed_month character varying(7)
);


--
-- Name: queue_job_facts; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.queue_job_facts (
    job_id character varying(26) NOT NULL,
    team character varying(128) NOT NULL,
    priority integer NOT NULL,
    gpus integer NOT NULL
);


--
-- Name: teams; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.teams (
    name character varying(128) NOT NULL,
    created_at timestamp with time zone NOT NULL
);


--
-- Name: webhook_attempts; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.webhook_attempts (
    delivery_id character varying(64) NOT NULL,
    attempt integer NOT NULL,
    attempted_at timestamp with time zone NOT NULL,
    status_code integer,
    error character varying(1024),
    duration_ms bigint NOT NULL,
    replica character varying(255) NOT NULL
);


--
-- Name: webhook_deliveries; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.webhook_deliveries (
    id character varying(64) NOT NULL,
    event_id character varying(64) NOT NULL,
    event_type character varying(128) NOT NULL,
    team character varying(128) NOT NULL,
    webhook_id character varying(64) NOT NULL,
    job_id character varying(26) NOT NULL,
    body text NOT NULL,
    status character varying(16) NOT NULL,
    attempts integer NOT NULL,
    created_at timestamp with time zone NOT NULL,
    next_attempt_at timestamp with time zone,
    last_attempt_at timestamp with time zone,
    last_status_code integer,
    last_error character varying(1024),
    lease_owner character varying(255),
    lease_until timestamp with time zone,
    version bigint DEFAULT 0 NOT NULL
);


--
-- Name: webhooks; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.webhooks (
    team character varying(128) NOT NULL,
    id character varying(64) NOT NULL,
    url character varying(2048) NOT NULL,
    event_types character varying(1024) NOT NULL,
    enabled boolean NOT NULL,
    secret_sealed character varying(1024) NOT NULL,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    updated_by character varying(255) NOT NULL
);


--
-- Data for Name: algorithm_versions; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.algorithm_versions (team, name, version, definition_json, definition_hash, status, published_by, published_at) FROM stdin;
\.


--
-- Data for Name: algorithms; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.algorithms (team, name, description, visibility, default_version, created_by, created_at, updated_at) FROM stdin;
\.


--
-- Data for Name: audit_digests; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.audit_digests (from_seq, to_seq, last_hash, previous_signature, signed_at, key_id, signature) FROM stdin;
\.


--
-- Data for Name: audit_events; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.audit_events (seq, event_time, actor_subject, actor_username, actor_client, actor_source_ip, actor_request_id, action, resource, outcome, team, backend, details, event_hash, hash) FROM stdin;
1	2026-12-01 23:15:09.132068+00	system:gateway	\N	\N	\N	\N	config.start	config	success	\N	\N	{"configSha256":"b3412cfc25c49961bc46bb57bd0e63715d5d37a40fdf3579090cf9aa794cba38","replica":"14038@vm","signingKeyId":"8ffc80c4e8ba41840e98e0191ffef9d12d6838fea36c010db0bc842676bdc0d8"}	a6c0f86822c7c5eaa50a3a9713092c9ad0162b6496bc91e2074c2b4a9ea2054a	c2a3e53e16ce957e5f2d93e04a4148e63eba602e7b0f91bb6c5ef2a919fe1a03
2	2026-12-01 23:15:14.270434+00	sub-mia	mia	\N	127.0.0.1	d10135ca-8b6a-4877-83bc-51a9399cd70e	job.submit	job/01m8sy8402qy17b5mhfdt92vrx	success	ml	k8s	{"name":"done","owner":"mia","spec":{"apiVersion":"trainyard.io/v1","kind":"TrainingJob","metadata":{"name":"done","team":"ml"},"spec":{"command":["python","train.py"],"framework":"pytorch","image":"registry.example.com/train:1","replicas":{"master":1},"resources":{"cpus":1,"memory":"1Gi"}}},"specHash":"35ba3b514aac9f96088b7db2c52654ed07440293457086f7bd1c2ffdd55c7d86"}	c1b80fd03708eef6990783ec37220eab5ff5aa17993e9504531b038fc74582f1	4c456940fe50c1fbec1882cf5e8bc08061d8016aa0f7ed3bffcb4f8e0392adcb
3	2026-12-01 23:15:14.272678+00	sub-mia	mia	\N	127.0.0.1	d10135ca-8b6a-4877-83bc-51a9399cd70e	job.route	job/01m8sy8402qy17b5mhfdt92vrx	success	ml	k8s	{"chosen":"k8s","decision":{"candidates":[{"backendId":"k8s","chosen":true,"estimated":false,"estimatedUsd":"0.384","hourlyUsd":"0.384","kind":"kubernetes","notes":["master on pool cpu","pool cpu (m5.2xlarge): 8 vCPUs, 32 GiB; allocatable 7.71 vCPUs, 30.22 GiB (EKS AMI kube-reserved for 110 pods + eviction + daemon sets)","price: 1 × m5.2xlarge @ $0.384/h (skypilot-catalog catalogs/v7/aws/vms.csv@001367d2)"],"placement":{"backendId":"k8s","clusterFeeUsdPerHour":null,"freeCapacity":null,"lines":[{"count":1,"gpuType":null,"gpus":0,"instanceType":"m5.2xlarge","pool":"cpu","roles":["master"]}],"notes":["master on pool cpu","pool cpu (m5.2xlarge): 8 vCPUs, 32 GiB; allocatable 7.71 vCPUs, 30.22 GiB (EKS AMI kube-reserved for 110 pods + eviction + daemon sets)"],"operatorUsdPerHour":null,"provider":"aws","region":"us-east-1","service":"ec2","spot":false},"region":"us-east-1","spot":false}],"choice":"cheapest: the lowest hourlyUsd, $0.384","chosen":"k8s","policy":"cheapest","pricesAsOf":"2026-11-30","rankedBy":"hourlyUsd"},"estimatedUsd":"0.384","hourlyUsd":"0.384","offerIndex":0}	8f43f117cfbbada4743cbd52b65472c0b6872acf12306aa592ef2ffdded39d70	c363048c013105094955752001af21ae6e2a595c352cecb578d406343b9d8441
4	2026-12-01 23:15:14.273612+00	sub-mia	mia	\N	127.0.0.1	d10135ca-8b6a-4877-83bc-51a9399cd70e	job.state	job/01m8sy8402qy17b5mhfdt92vrx	success	ml	k8s	{"attempt":1,"from":null,"reason":null,"to":"PENDING"}	c3a598ebb33544df95aff001b8b597a832476f4091a1d4a6ddf7f7f139dca53b	d4281949ebe469a64719a9a75a9ec7ed62990768f391b77ca3d3eecbbbb0bc7c
5	2026-12-01 23:15:15.176133+00	system:reconciler	\N	\N	\N	\N	backend.submit	job/01m8sy8402qy17b5mhfdt92vrx	success	ml	k8s	{"attempt":1,"reason":null,"ref":{"attributes":{"kind":"PyTorchJob","namespace":"ml-jobs"},"backendId":"k8s","name":"ty-01m8sy8402qy17b5mhfdt92vrx-a1"},"replica":"14038@vm"}	1abe3b5d1badeb9df803727abc35e61e00f66ba26125983db23269fb8b697848	c18c14a3810031bfd3de938f945e1d4119d43ca2b56170bcdbf63d159570cd71
6	2026-12-01 23:15:15.176163+00	system:reconciler	\N	\N	\N	\N	job.state	job/01m8sy8402qy17b5mhfdt92vrx	success	ml	k8s	{"attempt":1,"from":"PENDING","reason":null,"replica":"14038@vm","to":"SUBMITTED"}	0328b88020b7049afce8f2426fdedc99010dbcf289e00a707d9d1e557334c28b	a3453a70d8f620e796c11f8e93df0336bb84e6236718d499b0c87c68ac337400
7	2026-12-01 23:15:15.31258+00	sub-mia	mia	\N	127.0.0.1	2c11a99f-e52d-41e0-972f-b33729de998b	job.submit	job/01m8sy855dtfajx84yr39kwyf2	success	ml	k8s	{"name":"broken","owner":"mia","spec":{"apiVersion":"trainyard.io/v1","kind":"TrainingJob","metadata":{"name":"broken","team":"ml"},"spec":{"command":["python","train.py"],"framework":"pytorch","image":"registry.example.com/train:1","replicas":{"master":1},"resources":{"cpus":1,"memory":"1Gi"}}},"specHash":"799b46a07a37a08707ce57d46db3a0a8ac15341aea9722175d88a75a1c3549a4"}	3e1fee0ebb9a4e77814d09dda221a0453b7d7d51c1b1e6964a0ce9ff815731ac	75966b4a53088b93ce616750e1198c298c24df121dfa6f9172d08492c1b63781
8	2026-12-01 23:15:15.312972+00	sub-mia	mia	\N	127.0.0.1	2c11a99f-e52d-41e0-972f-b33729de998b	job.route	job/01m8sy855dtfajx84yr39kwyf2	success	ml	k8s	{"chosen":"k8s","decision":{"candidates":[{"backendId":"k8s","chosen":true,"estimated":false,"estimatedUsd":"0.384","hourlyUsd":"0.384","kind":"kubernetes","notes":["master on pool cpu","pool cpu (m5.2xlarge): 8 vCPUs, 32 GiB; allocatable 7.71 vCPUs, 30.22 GiB (EKS AMI kube-reserved for 110 pods + eviction + daemon sets)","price: 1 × m5.2xlarge @ $0.384/h (skypilot-catalog catalogs/v7/aws/vms.csv@001367d2)"],"placement":{"backendId":"k8s","clusterFeeUsdPerHour":null,"freeCapacity":null,"lines":[{"count":1,"gpuType":null,"gpus":0,"instanceType":"m5.2xlarge","pool":"cpu","roles":["master"]}],"notes":["master on pool cpu","pool cpu (m5.2xlarge): 8 vCPUs, 32 GiB; allocatable 7.71 vCPUs, 30.22 GiB (EKS AMI kube-reserved for 110 pods + eviction + daemon sets)"],"operatorUsdPerHour":null,"provider":"aws","region":"us-east-1","service":"ec2","spot":false},"region":"us-east-1","spot":false}],"choice":"cheapest: the lowest hourlyUsd, $0.384","chosen":"k8s","policy":"cheapest","pricesAsOf":"2026-11-30","rankedBy":"hourlyUsd"},"estimatedUsd":"0.384","hourlyUsd":"0.384","offerIndex":0}	457eafe2d76da690c83c2596c1d44add29bb31a1bb768a443a4f97455e19cb31	e82949dd79589248bf58eda67f5e92ba91376ea3a8fc7b94325bacfd1f942f8c
9	2026-12-01 23:15:15.313346+00	sub-mia	mia	\N	127.0.0.1	2c11a99f-e52d-41e0-972f-b33729de998b	job.state	job/01m8sy855dtfajx84yr39kwyf2	success	ml	k8s	{"attempt":1,"from":null,"reason":null,"to":"PENDING"}	805ad3144685eb2fa1bf911d37857af0ab8cea8775298266398c1dca9adf1c87	2ca1467bdc85f2ac40183204fc2b983593a4ac4f99c9c2ee31c78ec220bc36e2
10	2026-12-01 23:15:15.811132+00	sub-mia	mia	\N	127.0.0.1	a46ba013-8e0c-4902-8168-4cf5a058e43c	job.submit	job/01m8sy85hcccb6bb1kt2dcg6m0	success	ml	k8s	{"name":"stopped","owner":"mia","spec":{"apiVersion":"trainyard.io/v1","kind":"TrainingJob","metadata":{"name":"stopped","team":"ml"},"spec":{"command":["python","train.py"],"framework":"pytorch","image":"registry.example.com/train:1","replicas":{"master":1},"resources":{"cpus":1,"memory":"1Gi"}}},"specHash":"ba0e5fad4e74d2ccacfd2d38d912928ac5b736d638072c60803c78ec8a01c9ec"}	9b35fea39504461036ef70dc35daabcfd02de737499062f4a7c8e57b3ad8b2a5	03f036c5ed1173c52c78fbb23f4f6012498c903ef7bdd286389746b5190ad134
11	2026-12-01 23:15:15.811468+00	sub-mia	mia	\N	127.0.0.1	a46ba013-8e0c-4902-8168-4cf5a058e43c	job.route	job/01m8sy85hcccb6bb1kt2dcg6m0	success	ml	k8s	{"chosen":"k8s","decision":{"candidates":[{"backendId":"k8s","chosen":true,"estimated":false,"estimatedUsd":"0.384","hourlyUsd":"0.384","kind":"kubernetes","notes":["master on pool cpu","pool cpu (m5.2xlarge): 8 vCPUs, 32 GiB; allocatable 7.71 vCPUs, 30.22 GiB (EKS AMI kube-reserved for 110 pods + eviction + daemon sets)","price: 1 × m5.2xlarge @ $0.384/h (skypilot-catalog catalogs/v7/aws/vms.csv@001367d2)"],"placement":{"backendId":"k8s","clusterFeeUsdPerHour":null,"freeCapacity":null,"lines":[{"count":1,"gpuType":null,"gpus":0,"instanceType":"m5.2xlarge","pool":"cpu","roles":["master"]}],"notes":["master on pool cpu","pool cpu (m5.2xlarge): 8 vCPUs, 32 GiB; allocatable 7.71 vCPUs, 30.22 GiB (EKS AMI kube-reserved for 110 pods + eviction + daemon sets)"],"operatorUsdPerHour":null,"provider":"aws","region":"us-east-1","service":"ec2","spot":false},"region":"us-east-1","spot":false}],"choice":"cheapest: the lowest hourlyUsd, $0.384","chosen":"k8s","policy":"cheapest","pricesAsOf":"2026-11-30","rankedBy":"hourlyUsd"},"estimatedUsd":"0.384","hourlyUsd":"0.384","offerIndex":0}	c1e44832a06bd568e14584c10a4eff2307bd7ec3cd32d8a0db4b9f1a2b1543c8	4fac12f82fed59f192db59c269ef14dea1872062019a6ac96ef3463d2cd614d3
12	2026-12-01 23:15:15.811704+00	sub-mia	mia	\N	127.0.0.1	a46ba013-8e0c-4902-8168-4cf5a058e43c	job.state	job/01m8sy85hcccb6bb1kt2dcg6m0	success	ml	k8s	{"attempt":1,"from":null,"reason":null,"to":"PENDING"}	d7b5335abdb78c06fef5330c8fa86d7f8a34d321358abab9e0d96a0f136efcae	10e5ca615a1e03b4c94b60b2c269b42df7bac684c17fe9a5289938ad9a23f79b
18	2026-12-01 23:15:16.169849+00	system:reconciler	\N	\N	\N	\N	backend.submit	job/01m8sy85hcccb6bb1kt2dcg6m0	success	ml	k8s	{"attempt":1,"reason":null,"ref":{"attributes":{"kind":"PyTorchJob","namespace":"ml-jobs"},"backendId":"k8s","name":"ty-01m8sy85hcccb6bb1kt2dcg6m0-a1"},"replica":"14038@vm"}	e20c91b322d94c5cac969782bce2b4838c7793946031ec3575cca46f07557c98	edd3d055029be025e1bc51d756940396b9b9f3e0b33924145c964fb49c7ebb0a
19	2026-12-01 23:15:16.169877+00	system:reconciler	\N	\N	\N	\N	job.state	job/01m8sy85hcccb6bb1kt2dcg6m0	success	ml	k8s	{"attempt":1,"from":"PENDING","reason":null,"replica":"14038@vm","to":"SUBMITTED"}	4ee7ed378222a79290452cca13ed6b53dfd82d436a1cf86a2f6638ee23732de2	de6afdf00293c750af4997f0dcfeb1469c0f5c9490962ff715789af94ab7934c
20	2026-12-01 23:15:16.267854+00	system:reconciler	\N	\N	\N	\N	backend.submit	job/01m8sy85x7tby39jmv03g19069	success	ml	k8s	{"attempt":1,"reason":null,"ref":{"attributes":{"kind":"PyTorchJob","namespace":"ml-jobs"},"backendId":"k8s","name":"ty-01m8sy85x7tby39jmv03g19069-a1"},"replica":"14038@vm"}	5653db4e19096dcf09858c79308999812841a53a20fb9447370a52e1bc1627e1	72c8135b9d12019824004f36acf15eb778dba862a28761eec0cf8881d11fae5d
21	2026-12-01 23:15:16.267878+00	system:reconciler	\N	\N	\N	\N	job.state	job/01m8sy85x7tby39jmv03g19069	success	ml	k8s	{"attempt":1,"from":"PENDING","reason":null,"replica":"14038@vm","to":"SUBMITTED"}	85d44e0d5d2f336d166a734b3bb094132b191139350a1c41c4e0e864f5f58a62	f1dcfccf692ac00aea453946d9ba8e0f9ad609f0dff0e51144c6aac7565223b3
28	2026-12-01 23:15:16.437077+00	system:reconciler	\N	\N	\N	\N	backend.submit	job/01m8sy862w3c3193xprtbn77yn	success	ml	k8s	{"attempt":1,"reason":null,"ref":{"attributes":{"kind":"PyTorchJob","namespace":"ml-jobs"},"backendId":"k8s","name":"ty-01m8sy862w3c3193xprtbn77yn-a1"},"replica":"14038@vm"}	fb3d1fcecc77daa208f844e54da944337df5be7f209b6059830f0ecec5fc2d33	4a5e82b92ff1115d1d1e2bfe07eeae4800cc310940d44c8e10d1e4e467da1948
29	2026-12-01 23:15:16.437105+00	system:reconciler	\N	\N	\N	\N	job.state	job/01m8sy862w3c3193xprtbn77yn	success	ml	k8s	{"attempt":1,"from":"PENDING","reason":null,"replica":"14038@vm","to":"SUBMITTED"}	37edc758a1adfcacfd184e9b012c0f21e2e4debb69790ea924b444a4cd858cd4	896ed3720088912af325d48f972faa80daf8d11b9b9ece177d97ba83407bb969
43	2026-12-01 23:15:17.654269+00	system:reconciler	\N	\N	\N	\N	job.state	job/01m8sy8402qy17b5mhfdt92vrx	success	ml	k8s	{"attempt":1,"from":"SUBMITTED","reason":null,"replica":"14038@vm","to":"RUNNING"}	c5809eb3dc94b3cd14e82451120292a6dcd9cfa7ffd48faee0627a16c451719b	83807c4cc7eee079e6f1e1c2a8390d1135153b325814614ad0856d3209092f96
47	2026-12-01 23:15:18.830538+00	system:reconciler	\N	\N	\N	\N	job.state	job/01m8sy8694e7j9y8vmk17cjyvt	success	capped	k8s	{"attempt":1,"from":"SUBMITTED","reason":null,"replica":"14038@vm","to":"RUNNING"}	0b8053a13abca84dae2e72a690088a349fdd2f00e95c53bce346a9a9303c196d	84076020f7d4a2b5e866054546ffab346a35ff055797dfd946c5e056c1ef5545
48	2026-12-01 23:15:18.917976+00	system:reconciler	\N	\N	\N	\N	job.state	job/01m8sy855dtfajx84yr39kwyf2	failure	ml	k8s	{"attempt":1,"from":"SUBMITTED","reason":"PyTorchJob ty-01m8sy855dtfajx84yr39kwyf2-a1 is failed because 1 Master replica(s) failed.","replica":"14038@vm","to":"FAILED"}	2d72c64fcee9ff63cb8ce4fd45a3ff4075ac642df84f1c28d72789ead0da6048	f94a7db7cfe5045099510a4a060afb93e3355a007571f79484fd802f8b900ae8
49	2026-12-01 23:15:19.082175+00	system:reconciler	\N	\N	\N	\N	job.state	job/01m8sy85x7tby39jmv03g19069	success	ml	k8s	{"attempt":1,"from":"SUBMITTED","reason":null,"replica":"14038@vm","to":"RUNNING"}	580bbb1c548e516e77ffa28b2ba2ab6bbfbc65c15a366fc4bfa6cb5e53a9cddd	bcaada5b90936628ffe4f6cd297a8e3b8d02131abf4fcbdb0719c69909f0b784
50	2026-12-01 23:15:19.216664+00	system:reconciler	\N	\N	\N	\N	job.state	job/01m8sy866wpqprxabmcb381vx3	success	ml	k8s	{"attempt":1,"from":"SUBMITTED","reason":null,"replica":"14038@vm","to":"CANCELLING"}	aa55cb8f24abe427d4507ce62ce99443afaeb3750f6170b9ff42cd7ed53f82a7	0c77d72a99d026f2232824aa837e08e3e453a30945cfb496c90ba037b1c3e90c
51	2026-12-01 23:15:19.312679+00	system:reconciler	\N	\N	\N	\N	job.state	job/01m8sy85hcccb6bb1kt2dcg6m0	success	ml	k8s	{"attempt":1,"from":"SUBMITTED","reason":null,"replica":"14038@vm","to":"CANCELLING"}	62aed6e4dd679db5c05c9609d4cc78930187507e1f49b4748f4df0bd5b00c195	08284b787c4e3477b358cc3406d5db2adbfaad3b2b0333406361975f16fa7078
13	2026-12-01 23:15:15.957546+00	system:reconciler	\N	\N	\N	\N	backend.submit	job/01m8sy855dtfajx84yr39kwyf2	success	ml	k8s	{"attempt":1,"reason":null,"ref":{"attributes":{"kind":"PyTorchJob","namespace":"ml-jobs"},"backendId":"k8s","name":"ty-01m8sy855dtfajx84yr39kwyf2-a1"},"replica":"14038@vm"}	19ec1c32dcb6b58e7a572c1c7637c17f31b6cb2a05d7acee0e14ed135667f130	8836ba57e1cb797ac919b1487e953e5b1930dac1c0c373090e250d97c83b0f04
14	2026-12-01 23:15:15.957567+00	system:reconciler	\N	\N	\N	\N	job.state	job/01m8sy855dtfajx84yr39kwyf2	success	ml	k8s	{"attempt":1,"from":"PENDING","reason":null,"replica":"14038@vm","to":"SUBMITTED"}	ffe4f4c3254cf28e906146696d87239a94d0157b08777f128842ebf0ef633803	1f288256fee0c22b3969cda8123933806db56bfdec9f0fbc5a830621708c7361
15	2026-12-01 23:15:16.03856+00	sub-mia	mia	\N	127.0.0.1	d8a9636f-592f-4469-a2da-fc5e7d08b067	job.submit	job/01m8sy85x7tby39jmv03g19069	success	ml	k8s	{"name":"running","owner":"mia","spec":{"apiVersion":"trainyard.io/v1","kind":"TrainingJob","metadata":{"name":"running","team":"ml"},"spec":{"command":["python","train.py"],"framework":"pytorch","image":"registry.example.com/train:1","replicas":{"master":1},"resources":{"cpus":1,"memory":"1Gi"}}},"specHash":"7e9b16e666a3860b239664b0bbc2a492a36ce712c6a571788ab8d7e12156b976"}	0aa75a9f6a6391bad6a416178a9d8de2fa338af93ef21994caf5db1bd7364062	9ca9a3d9b4b1cb975b1066246838e337ac52db9f5ebff13462edab2747f09c2e
16	2026-12-01 23:15:16.038852+00	sub-mia	mia	\N	127.0.0.1	d8a9636f-592f-4469-a2da-fc5e7d08b067	job.route	job/01m8sy85x7tby39jmv03g19069	success	ml	k8s	{"chosen":"k8s","decision":{"candidates":[{"backendId":"k8s","chosen":true,"estimated":false,"estimatedUsd":"0.384","hourlyUsd":"0.384","kind":"kubernetes","notes":["master on pool cpu","pool cpu (m5.2xlarge): 8 vCPUs, 32 GiB; allocatable 7.71 vCPUs, 30.22 GiB (EKS AMI kube-reserved for 110 pods + eviction + daemon sets)","price: 1 × m5.2xlarge @ $0.384/h (skypilot-catalog catalogs/v7/aws/vms.csv@001367d2)"],"placement":{"backendId":"k8s","clusterFeeUsdPerHour":null,"freeCapacity":null,"lines":[{"count":1,"gpuType":null,"gpus":0,"instanceType":"m5.2xlarge","pool":"cpu","roles":["master"]}],"notes":["master on pool cpu","pool cpu (m5.2xlarge): 8 vCPUs, 32 GiB; allocatable 7.71 vCPUs, 30.22 GiB (EKS AMI kube-reserved for 110 pods + eviction + daemon sets)"],"operatorUsdPerHour":null,"provider":"aws","region":"us-east-1","service":"ec2","spot":false},"region":"us-east-1","spot":false}],"choice":"cheapest: the lowest hourlyUsd, $0.384","chosen":"k8s","policy":"cheapest","pricesAsOf":"2026-11-30","rankedBy":"hourlyUsd"},"estimatedUsd":"0.384","hourlyUsd":"0.384","offerIndex":0}	a1a3cb91bc5fe33b6718ee29223bc2502b1309356c23f991c6a580a043e45c76	9641f68969352c0848fab6a9e80e03055f63ec8de0d15cb96fd968d4df602902
17	2026-12-01 23:15:16.039053+00	sub-mia	mia	\N	127.0.0.1	d8a9636f-592f-4469-a2da-fc5e7d08b067	job.state	job/01m8sy85x7tby39jmv03g19069	success	ml	k8s	{"attempt":1,"from":null,"reason":null,"to":"PENDING"}	c6ea0cc580ed9f8d441f3c03cd39d8eb2af4dd3118fd445484a41d3476fea4f9	0991e88d69c6024784ccc0a0720e163295a03e2e7780510b895e22f076d91547
22	2026-12-01 23:15:16.274842+00	sub-mia	mia	\N	127.0.0.1	1129352b-fb72-4874-985c-3fbe51c9427e	job.submit	job/01m8sy862w3c3193xprtbn77yn	success	ml	k8s	{"name":"waiting","owner":"mia","spec":{"apiVersion":"trainyard.io/v1","kind":"TrainingJob","metadata":{"name":"waiting","team":"ml"},"spec":{"command":["python","train.py"],"framework":"pytorch","image":"registry.example.com/train:1","replicas":{"master":1},"resources":{"cpus":1,"memory":"1Gi"}}},"specHash":"b2acd8a93b8fe3f6770fc4214d0e7c3317c13901ba7f6d29b4ed9d382f867de9"}	0c42d2caa84c0417b7a22fca4670ae120c783a36c844ca8addccf000a89876fe	16df54ba9b20c8cf8d34fd168a16d93e6cb61c79775f1792775e2631f8fb8bb1
23	2026-12-01 23:15:16.275242+00	sub-mia	mia	\N	127.0.0.1	1129352b-fb72-4874-985c-3fbe51c9427e	job.route	job/01m8sy862w3c3193xprtbn77yn	success	ml	k8s	{"chosen":"k8s","decision":{"candidates":[{"backendId":"k8s","chosen":true,"estimated":false,"estimatedUsd":"0.384","hourlyUsd":"0.384","kind":"kubernetes","notes":["master on pool cpu","pool cpu (m5.2xlarge): 8 vCPUs, 32 GiB; allocatable 7.71 vCPUs, 30.22 GiB (EKS AMI kube-reserved for 110 pods + eviction + daemon sets)","price: 1 × m5.2xlarge @ $0.384/h (skypilot-catalog catalogs/v7/aws/vms.csv@001367d2)"],"placement":{"backendId":"k8s","clusterFeeUsdPerHour":null,"freeCapacity":null,"lines":[{"count":1,"gpuType":null,"gpus":0,"instanceType":"m5.2xlarge","pool":"cpu","roles":["master"]}],"notes":["master on pool cpu","pool cpu (m5.2xlarge): 8 vCPUs, 32 GiB; allocatable 7.71 vCPUs, 30.22 GiB (EKS AMI kube-reserved for 110 pods + eviction + daemon sets)"],"operatorUsdPerHour":null,"provider":"aws","region":"us-east-1","service":"ec2","spot":false},"region":"us-east-1","spot":false}],"choice":"cheapest: the lowest hourlyUsd, $0.384","chosen":"k8s","policy":"cheapest","pricesAsOf":"2026-11-30","rankedBy":"hourlyUsd"},"estimatedUsd":"0.384","hourlyUsd":"0.384","offerIndex":0}	4a3ff05a96e6c92ea23dc7197ec9daad8bd43e049ec80176eeb6dc3d2f55562f	5d0eaa095ec754650f7e5c89ae6da1b18c05ebeaa1877d68f7f79bf3e645a975
24	2026-12-01 23:15:16.275438+00	sub-mia	mia	\N	127.0.0.1	1129352b-fb72-4874-985c-3fbe51c9427e	job.state	job/01m8sy862w3c3193xprtbn77yn	success	ml	k8s	{"attempt":1,"from":null,"reason":null,"to":"PENDING"}	83a4dd9050bf1100b50294bdf0ab7c5de8d7c420232aaff331fd6884d90cf35c	666f13c648b64aad541a82fd379b5ad4470dfa51a25bdb527a45b797a516e600
25	2026-12-01 23:15:16.344764+00	sub-mia	mia	\N	127.0.0.1	65bc39f4-98bc-4934-9b1b-2a996ee8c124	job.submit	job/01m8sy866wpqprxabmcb381vx3	success	ml	k8s	{"name":"draining","owner":"mia","spec":{"apiVersion":"trainyard.io/v1","kind":"TrainingJob","metadata":{"name":"draining","team":"ml"},"spec":{"command":["python","train.py"],"framework":"pytorch","image":"registry.example.com/train:1","replicas":{"master":1},"resources":{"cpus":1,"memory":"1Gi"}}},"specHash":"ec9452a15eae99794463908ebd1d106499cdcc5564ba4458d07bc4c108226e07"}	c3ad976cb5bd6308622c025d10ad75fda5d8c943883375efa10aa91e2d656630	1e2cfc642526f3fab4cd5186e5731e7bee86a5b159cb5f61b1cb27f3871c1d8b
26	2026-12-01 23:15:16.34557+00	sub-mia	mia	\N	127.0.0.1	65bc39f4-98bc-4934-9b1b-2a996ee8c124	job.route	job/01m8sy866wpqprxabmcb381vx3	success	ml	k8s	{"chosen":"k8s","decision":{"candidates":[{"backendId":"k8s","chosen":true,"estimated":false,"estimatedUsd":"0.384","hourlyUsd":"0.384","kind":"kubernetes","notes":["master on pool cpu","pool cpu (m5.2xlarge): 8 vCPUs, 32 GiB; allocatable 7.71 vCPUs, 30.22 GiB (EKS AMI kube-reserved for 110 pods + eviction + daemon sets)","price: 1 × m5.2xlarge @ $0.384/h (skypilot-catalog catalogs/v7/aws/vms.csv@001367d2)"],"placement":{"backendId":"k8s","clusterFeeUsdPerHour":null,"freeCapacity":null,"lines":[{"count":1,"gpuType":null,"gpus":0,"instanceType":"m5.2xlarge","pool":"cpu","roles":["master"]}],"notes":["master on pool cpu","pool cpu (m5.2xlarge): 8 vCPUs, 32 GiB; allocatable 7.71 vCPUs, 30.22 GiB (EKS AMI kube-reserved for 110 pods + eviction + daemon sets)"],"operatorUsdPerHour":null,"provider":"aws","region":"us-east-1","service":"ec2","spot":false},"region":"us-east-1","spot":false}],"choice":"cheapest: the lowest hourlyUsd, $0.384","chosen":"k8s","policy":"cheapest","pricesAsOf":"2026-11-30","rankedBy":"hourlyUsd"},"estimatedUsd":"0.384","hourlyUsd":"0.384","offerIndex":0}	5ee4b7efdf870d79ed2b8a4b0e9d1cecf7bae0781d38b1e70dff35b9b5299208	8d1c56462ddfbe283eee7ebfb89ca1234575b76b55a25f09b5aba68dcd4239bc
27	2026-12-01 23:15:16.346757+00	sub-mia	mia	\N	127.0.0.1	65bc39f4-98bc-4934-9b1b-2a996ee8c124	job.state	job/01m8sy866wpqprxabmcb381vx3	success	ml	k8s	{"attempt":1,"from":null,"reason":null,"to":"PENDING"}	32cd21d5d3e728308bf417c4c39276932557e7f0a90fa22ca54ff019353e91cf	c543bf6718ac40f99972eee15ca1c952a9b80ebd04f183dc0bececc10e87043c
30	2026-12-01 23:15:16.446986+00	sub-mia	mia	\N	127.0.0.1	e4be1c13-9f16-46e2-aa26-0fb1fa0e746a	job.submit	job/01m8sy8694e7j9y8vmk17cjyvt	success	capped	k8s	{"name":"first","owner":"mia","spec":{"apiVersion":"trainyard.io/v1","kind":"TrainingJob","metadata":{"name":"first","team":"capped"},"spec":{"command":["python","train.py"],"framework":"pytorch","image":"registry.example.com/train:1","replicas":{"master":1},"resources":{"cpus":1,"memory":"1Gi"}}},"specHash":"4f22ea31acb23d30248e2b4f813a79ba0defe8dea746e5b462d82da0a8a644ef"}	7f53d66f679b9580ba086bd14a39d571a90c71f228e906cd3a3cf5f0f41f750b	dca4e102da4790d5478ef55198ec6193cc9119e259b58615a112656665e33e53
31	2026-12-01 23:15:16.447529+00	sub-mia	mia	\N	127.0.0.1	e4be1c13-9f16-46e2-aa26-0fb1fa0e746a	job.route	job/01m8sy8694e7j9y8vmk17cjyvt	success	capped	k8s	{"chosen":"k8s","decision":{"candidates":[{"backendId":"k8s","chosen":true,"estimated":false,"estimatedUsd":"0.384","hourlyUsd":"0.384","kind":"kubernetes","notes":["master on pool cpu","pool cpu (m5.2xlarge): 8 vCPUs, 32 GiB; allocatable 7.71 vCPUs, 30.22 GiB (EKS AMI kube-reserved for 110 pods + eviction + daemon sets)","price: 1 × m5.2xlarge @ $0.384/h (skypilot-catalog catalogs/v7/aws/vms.csv@001367d2)"],"placement":{"backendId":"k8s","clusterFeeUsdPerHour":null,"freeCapacity":null,"lines":[{"count":1,"gpuType":null,"gpus":0,"instanceType":"m5.2xlarge","pool":"cpu","roles":["master"]}],"notes":["master on pool cpu","pool cpu (m5.2xlarge): 8 vCPUs, 32 GiB; allocatable 7.71 vCPUs, 30.22 GiB (EKS AMI kube-reserved for 110 pods + eviction + daemon sets)"],"operatorUsdPerHour":null,"provider":"aws","region":"us-east-1","service":"ec2","spot":false},"region":"us-east-1","spot":false}],"choice":"cheapest: the lowest hourlyUsd, $0.384","chosen":"k8s","policy":"cheapest","pricesAsOf":"2026-11-30","rankedBy":"hourlyUsd"},"estimatedUsd":"0.384","hourlyUsd":"0.384","offerIndex":0}	3d0149a83f37c7284add1c887afda4e846f583b5bd9a9935a01b2511b32b35b9	0f4ec933766438b2b0307b9b01f988c47a29ad5e474b75584c1428ff4ed6826e
32	2026-12-01 23:15:16.448583+00	sub-mia	mia	\N	127.0.0.1	e4be1c13-9f16-46e2-aa26-0fb1fa0e746a	job.state	job/01m8sy8694e7j9y8vmk17cjyvt	success	capped	k8s	{"attempt":1,"from":null,"reason":null,"to":"PENDING"}	14032d283e3e999e6d329db594d2fb378cd47c82a3290d80e50d62526cb124dd	651473c8102dcf8c72ef8c7d9d88a6cd237f3fc82be8d93b05d72dfb71412801
33	2026-12-01 23:15:16.50812+00	sub-mia	mia	\N	127.0.0.1	83032d8d-a938-47d7-9679-3f7d0570e73e	job.submit	job/01m8sy86ccdtatb76v2kyb4zgw	success	capped	\N	{"name":"second","owner":"mia","spec":{"apiVersion":"trainyard.io/v1","kind":"TrainingJob","metadata":{"name":"second","team":"capped"},"spec":{"command":["python","train.py"],"framework":"pytorch","image":"registry.example.com/train:1","replicas":{"master":1},"resources":{"cpus":1,"memory":"1Gi"}}},"specHash":"8c3ceaf29be90273a03e2279887f9ee80a98f71f2eb7948fff7cd86c508d3da6"}	2744f569bacdc7ef0aecc47d82bfa983b7e54d85dee246201f3e2b4b8959adec	85273e56efe4eb9afc6ee85ba789447adbcbcbf4579af620a6bb2efc267e5295
34	2026-12-01 23:15:16.508927+00	sub-mia	mia	\N	127.0.0.1	83032d8d-a938-47d7-9679-3f7d0570e73e	job.route	job/01m8sy86ccdtatb76v2kyb4zgw	success	capped	\N	{"chosen":null,"decision":{"candidates":[{"backendId":"k8s","chosen":true,"estimated":false,"estimatedUsd":"0.384","hourlyUsd":"0.384","kind":"kubernetes","notes":["master on pool cpu","pool cpu (m5.2xlarge): 8 vCPUs, 32 GiB; allocatable 7.71 vCPUs, 30.22 GiB (EKS AMI kube-reserved for 110 pods + eviction + daemon sets)","price: 1 × m5.2xlarge @ $0.384/h (skypilot-catalog catalogs/v7/aws/vms.csv@001367d2)"],"placement":{"backendId":"k8s","clusterFeeUsdPerHour":null,"freeCapacity":null,"lines":[{"count":1,"gpuType":null,"gpus":0,"instanceType":"m5.2xlarge","pool":"cpu","roles":["master"]}],"notes":["master on pool cpu","pool cpu (m5.2xlarge): 8 vCPUs, 32 GiB; allocatable 7.71 vCPUs, 30.22 GiB (EKS AMI kube-reserved for 110 pods + eviction + daemon sets)"],"operatorUsdPerHour":null,"provider":"aws","region":"us-east-1","service":"ec2","spot":false},"region":"us-east-1","spot":false}],"choice":"cheapest: the lowest hourlyUsd, $0.384","chosen":"k8s","policy":"cheapest","pricesAsOf":"2026-11-30","rankedBy":"hourlyUsd"},"estimatedUsd":null,"hourlyUsd":null,"offerIndex":0}	a70eb4b12259b21e13e8a882fec6f3509b7dbfd47821c398046a73aa2bb27f3c	903c15449c2bed08437c649366ec3aaaa5371e73105a1e8cbe6c43c2a9ece09b
35	2026-12-01 23:15:16.509268+00	sub-mia	mia	\N	127.0.0.1	83032d8d-a938-47d7-9679-3f7d0570e73e	job.state	job/01m8sy86ccdtatb76v2kyb4zgw	success	capped	\N	{"attempt":1,"from":null,"reason":"team capped is at its quota teams.capped.maxConcurrentJobs: 1 of 1 jobs placed","to":"QUEUED"}	e3544baa8de04b548120718e533cdd2fa8c799d0aa4bbd6d725e046a049f0382	9d002e4f049bca03234ca1b330c234117b20ec8925ec4f47f2dfb972e89bcb79
36	2026-12-01 23:15:16.543915+00	sub-mia	mia	\N	127.0.0.1	14ba7aad-47f5-4452-85a9-cc5b15af1d49	job.submit	job/01m8sy86dnyeq19mg93n6gjjh9	success	hold	k8s	{"name":"pending","owner":"mia","spec":{"apiVersion":"trainyard.io/v1","kind":"TrainingJob","metadata":{"name":"pending","team":"hold"},"spec":{"command":["python","train.py"],"framework":"pytorch","image":"registry.example.com/train:1","replicas":{"master":1},"resources":{"cpus":1,"memory":"1Gi"}}},"specHash":"6f0c796d289001a2461597e225e8adb975a04301d9755230878c39b7797fd6b3"}	c45af354e5f78810bebf4f1daacc367d89afc239eca121cb6c444693ee2c42f9	612b1332f0086457af014255b8bdba314e35a1d4f80898fab449959f7819963b
37	2026-12-01 23:15:16.54421+00	sub-mia	mia	\N	127.0.0.1	14ba7aad-47f5-4452-85a9-cc5b15af1d49	job.route	job/01m8sy86dnyeq19mg93n6gjjh9	success	hold	k8s	{"chosen":"k8s","decision":{"candidates":[{"backendId":"k8s","chosen":true,"estimated":false,"estimatedUsd":"0.384","hourlyUsd":"0.384","kind":"kubernetes","notes":["master on pool cpu","pool cpu (m5.2xlarge): 8 vCPUs, 32 GiB; allocatable 7.71 vCPUs, 30.22 GiB (EKS AMI kube-reserved for 110 pods + eviction + daemon sets)","price: 1 × m5.2xlarge @ $0.384/h (skypilot-catalog catalogs/v7/aws/vms.csv@001367d2)"],"placement":{"backendId":"k8s","clusterFeeUsdPerHour":null,"freeCapacity":null,"lines":[{"count":1,"gpuType":null,"gpus":0,"instanceType":"m5.2xlarge","pool":"cpu","roles":["master"]}],"notes":["master on pool cpu","pool cpu (m5.2xlarge): 8 vCPUs, 32 GiB; allocatable 7.71 vCPUs, 30.22 GiB (EKS AMI kube-reserved for 110 pods + eviction + daemon sets)"],"operatorUsdPerHour":null,"provider":"aws","region":"us-east-1","service":"ec2","spot":false},"region":"us-east-1","spot":false}],"choice":"cheapest: the lowest hourlyUsd, $0.384","chosen":"k8s","policy":"cheapest","pricesAsOf":"2026-11-30","rankedBy":"hourlyUsd"},"estimatedUsd":"0.384","hourlyUsd":"0.384","offerIndex":0}	acc544e9dc192e1ee1ff8e90d7e8d872000424d44799745804ddc33f0515f92d	ba3e744af6edf20db468a7f48a0e4dd406c8c5f1a111ec231e7a36945c5c96cc
38	2026-12-01 23:15:16.544546+00	sub-mia	mia	\N	127.0.0.1	14ba7aad-47f5-4452-85a9-cc5b15af1d49	job.state	job/01m8sy86dnyeq19mg93n6gjjh9	success	hold	k8s	{"attempt":1,"from":null,"reason":null,"to":"PENDING"}	c256960e7ef48d64cf0bb1bde4e0225ed5f1a8d56c6c7eb501c001cf8d2b63e7	a3743756ff999168d22168a02e1dfaf990a8741c430bbdd1a751255161999a9b
39	2026-12-01 23:15:16.690853+00	system:reconciler	\N	\N	\N	\N	backend.submit	job/01m8sy866wpqprxabmcb381vx3	success	ml	k8s	{"attempt":1,"reason":null,"ref":{"attributes":{"kind":"PyTorchJob","namespace":"ml-jobs"},"backendId":"k8s","name":"ty-01m8sy866wpqprxabmcb381vx3-a1"},"replica":"14038@vm"}	47de1bd2ed6f273b10f43683a9e9f28a01b836fed783d3b186c3a807f8a70bc1	f286c5a3de1cb2a9fb35155a90bdea002b6d1819fe5bb4c608594a57f916353e
40	2026-12-01 23:15:16.690871+00	system:reconciler	\N	\N	\N	\N	job.state	job/01m8sy866wpqprxabmcb381vx3	success	ml	k8s	{"attempt":1,"from":"PENDING","reason":null,"replica":"14038@vm","to":"SUBMITTED"}	82b012de9d1519f12941c4d3026681fd61eb56b31137700c61c4911caf4c5e55	13cf91e50b78877de1c0d6241ce1b15660a2f0d94d338b0b20daf0b6c8f78f59
41	2026-12-01 23:15:16.790435+00	system:reconciler	\N	\N	\N	\N	backend.submit	job/01m8sy8694e7j9y8vmk17cjyvt	success	capped	k8s	{"attempt":1,"reason":null,"ref":{"attributes":{"kind":"PyTorchJob","namespace":"capped-jobs"},"backendId":"k8s","name":"ty-01m8sy8694e7j9y8vmk17cjyvt-a1"},"replica":"14038@vm"}	05b4ad18407889bdec3661877b29ea1fbebd97737ad8bd00cf00167fb81e0833	e4cfc2248080931b2af8b976497eaaf11b064b5d57c005dcc0d014aff6ce8614
42	2026-12-01 23:15:16.790449+00	system:reconciler	\N	\N	\N	\N	job.state	job/01m8sy8694e7j9y8vmk17cjyvt	success	capped	k8s	{"attempt":1,"from":"PENDING","reason":null,"replica":"14038@vm","to":"SUBMITTED"}	4bcd8f450f0692dae573a55bcaea637c8f4e7e3592245b759eef94f9bd600cc2	9014a2116062d7b5fdfe00cf91629359f0a9e93d72d442bba759906595c5ab8d
44	2026-12-01 23:15:18.099081+00	sub-mia	mia	\N	127.0.0.1	4582e494-e158-42c0-b340-e473ab649c28	job.cancel	job/01m8sy85hcccb6bb1kt2dcg6m0	success	ml	k8s	{"name":"stopped","state":"SUBMITTED"}	7e3adf636e3e63e98c3bd99b18ccab509b332aabad585df4716081d2a42e7510	ab286f10764d7b6d72d176b2cbad43b555c0373c1c1dabc7873d6240d2af3823
45	2026-12-01 23:15:18.196231+00	sub-mia	mia	\N	127.0.0.1	47b3e730-7425-45cf-99fe-b0606a3351f5	job.cancel	job/01m8sy866wpqprxabmcb381vx3	success	ml	k8s	{"name":"draining","state":"SUBMITTED"}	d8b226573007c33839bca0194000cf1c428ecbcfc1e3a2e9a1509c715c16db8f	2dce15226b1d21b4e71749cb86f067900a9a2bba7e615963a7c36b188f99dc2a
46	2026-12-01 23:15:18.636332+00	system:reconciler	\N	\N	\N	\N	job.state	job/01m8sy8402qy17b5mhfdt92vrx	success	ml	k8s	{"attempt":1,"from":"RUNNING","reason":"PyTorchJob ty-01m8sy8402qy17b5mhfdt92vrx-a1 is successfully completed.","replica":"14038@vm","to":"SUCCEEDED"}	e6f5d965483744c486ef67f178f87a2bc09b176683d767e547446a2335718534	9a0cb3f5c7d3c38b66fc127b7cfe7d9ab5de68b5ab9bbea38660a50c5dcc7d73
52	2026-12-01 23:15:19.476737+00	system:reconciler	\N	\N	\N	\N	job.state	job/01m8sy85hcccb6bb1kt2dcg6m0	success	ml	k8s	{"attempt":1,"from":"CANCELLING","reason":null,"replica":"14038@vm","to":"CANCELLED"}	f1a16cf08f8f988d6690eaf159d1d5d11e64a94455e4efef26f25562a4fc14a3	2960105cfe426a88ab43ab62232b9c9b416a03464c47b9587204ec76f5ebd3c5
53	2026-12-01 23:15:19.852595+00	sub-aud	aud	\N	127.0.0.1	d373eb55-2d08-4178-a8f8-9f4115a0d0ea	audit.export	audit/export/export-20261201T231519Z-27356	success	\N	\N	{"filter":{"actions":[],"actors":[],"backends":[],"from":null,"teams":[],"to":null},"format":"jsonl","fromSeq":1,"name":"export-20261201T231519Z-27356","sink":"filesystem:audit-exports/","toSeq":52}	cdab414483b27cff017acd7a35db3848ef67ec5e19c23d0f7a9abfca69154ba2	5709e87033e14d3e595bdbf0b223a2d7e41d648f955a5aae2271e5f3579dbcd4
\.


--
-- Data for Name: audit_head; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.audit_head (id, last_seq, last_hash) FROM stdin;
1	53	5709e87033e14d3e595bdbf0b223a2d7e41d648f955a5aae2271e5f3579dbcd4
\.


--
-- Data for Name: audit_leases; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.audit_leases (name, lease_owner, lease_until, last_done) FROM stdin;
digest-signer	14038@vm	2026-12-01 23:15:49.50931+00	\N
\.


--
-- Data for Name: databasechangelog; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.databasechangelog (id, author, filename, dateexecuted, orderexecuted, exectype, md5sum, description, comments, tag, liquibase, contexts, labels, deployment_id) FROM stdin;
1-jobs	trainyard	db/changelog.xml	2026-12-01 23:15:05.021833	1	EXECUTED	9:3ce026b4ac9bd93439e079004241b917	createTable tableName=jobs		\N	4.33.0	\N	\N	6166902275
2-jobs-live-name-unique	trainyard	db/changelog.xml	2026-12-01 23:15:05.051915	2	EXECUTED	9:d55087da65706ab08ea55c0dd0c5d28b	addUniqueConstraint constraintName=jobs_team_live_name_uq, tableName=jobs		\N	4.33.0	\N	\N	6166902275
3-jobs-team-created-index	trainyard	db/changelog.xml	2026-12-01 23:15:05.091667	3	EXECUTED	9:c710fa48f000b92a81344d2f78aed174	createIndex indexName=jobs_team_created_idx, tableName=jobs		\N	4.33.0	\N	\N	6166902275
4-jobs-created-index	trainyard	db/changelog.xml	2026-12-01 23:15:05.11914	4	EXECUTED	9:3c07967d2f4fc9bf4cec27ebd2b7fdd3	createIndex indexName=jobs_created_idx, tableName=jobs		\N	4.33.0	\N	\N	6166902275
5-jobs-claim-index	trainyard	db/changelog.xml	2026-12-01 23:15:05.143177	5	EXECUTED	9:f22e3b6c28a0905e9159fe8f44d2d544	createIndex indexName=jobs_claim_idx, tableName=jobs		\N	4.33.0	\N	\N	6166902275
6-job-events	trainyard	db/changelog.xml	2026-12-01 23:15:05.209859	6	EXECUTED	9:abbfc73d62b0f62c650570fb67d7db57	createTable tableName=job_events		\N	4.33.0	\N	\N	6166902275
7-job-events-job-index	trainyard	db/changelog.xml	2026-12-01 23:15:05.22895	7	EXECUTED	9:e729da540b0a592d7452165ae6584f1e	createIndex indexName=job_events_job_idx, tableName=job_events		\N	4.33.0	\N	\N	6166902275
8-idempotency-keys	trainyard	db/changelog.xml	2026-12-01 23:15:05.247833	8	EXECUTED	9:bfcdca89d2e8973921e2283955b314cd	createTable tableName=idempotency_keys		\N	4.33.0	\N	\N	6166902275
9-idempotency-keys-created-index	trainyard	db/changelog.xml	2026-12-01 23:15:05.260405	9	EXECUTED	9:729b1fdc765d86e8ac0ba1694194a032	createIndex indexName=idempotency_keys_created_idx, tableName=idempotency_keys		\N	4.33.0	\N	\N	6166902275
10-teams	trainyard	db/changelog.xml	2026-12-01 23:15:05.27748	10	EXECUTED	9:3f05f796d0c836eb1ecf601b09a79588	createTable tableName=teams		\N	4.33.0	\N	\N	6166902275
audit-1-events	trainyard	db/changelog.xml	2026-12-01 23:15:05.332461	11	EXECUTED	9:60c6b7c39fa4ba4c27be3095a6baa1a0	createTable tableName=audit_events		\N	4.33.0	\N	\N	6166902275
audit-2-events-time-index	trainyard	db/changelog.xml	2026-12-01 23:15:05.371998	12	EXECUTED	9:57a90341073817dd28ecc4d3b953b71e	createIndex indexName=audit_events_time_idx, tableName=audit_events		\N	4.33.0	\N	\N	6166902275
audit-3-head	trainyard	db/changelog.xml	2026-12-01 23:15:05.407624	13	EXECUTED	9:66a83c24ca161336d25bb6bf213ec102	createTable tableName=audit_head		\N	4.33.0	\N	\N	6166902275
audit-4-head-genesis	trainyard	db/changelog.xml	2026-12-01 23:15:05.422863	14	EXECUTED	9:88b84f70bf98aa0f6f64f33498069cc6	insert tableName=audit_head		\N	4.33.0	\N	\N	6166902275
audit-5-digests	trainyard	db/changelog.xml	2026-12-01 23:15:05.445189	15	EXECUTED	9:bd32b9dfcf8d5ea8ae3fe66bcde7cf7d	createTable tableName=audit_digests		\N	4.33.0	\N	\N	6166902275
audit-6-digests-to-unique	trainyard	db/changelog.xml	2026-12-01 23:15:05.515388	16	EXECUTED	9:13a1407ac9451b7e6a84e7059c422807	addUniqueConstraint constraintName=audit_digests_to_seq_uq, tableName=audit_digests		\N	4.33.0	\N	\N	6166902275
audit-7-leases	trainyard	db/changelog.xml	2026-12-01 23:15:05.541312	17	EXECUTED	9:a4d451345e17634f21d1373a1bb54c52	createTable tableName=audit_leases		\N	4.33.0	\N	\N	6166902275
audit-8-refuse-change-function	trainyard	db/changelog.xml	2026-12-01 23:15:05.619364	18	EXECUTED	9:8760a7bfa398922ae690958f2fc9bbf6	sql		\N	4.33.0	\N	\N	6166902275
audit-9-events-no-update-delete	trainyard	db/changelog.xml	2026-12-01 23:15:05.648729	19	EXECUTED	9:138a8fdb6aff68a4a784b88110e19fba	sql		\N	4.33.0	\N	\N	6166902275
audit-10-events-no-truncate	trainyard	db/changelog.xml	2026-12-01 23:15:05.72127	20	EXECUTED	9:89b906dcb400b481e285673eafb101c0	sql		\N	4.33.0	\N	\N	6166902275
audit-11-digests-no-update-delete	trainyard	db/changelog.xml	2026-12-01 23:15:05.743362	21	EXECUTED	9:31eea17bcdcd849638a4ba7ca99414cd	sql		\N	4.33.0	\N	\N	6166902275
audit-12-digests-no-truncate	trainyard	db/changelog.xml	2026-12-01 23:15:05.767765	22	EXECUTED	9:39d8db1a5b01b12eb51c6931d6f621ea	sql		\N	4.33.0	\N	\N	6166902275
webhooks-1-webhooks	trainyard	db/changelog.xml	2026-12-01 23:15:05.812991	23	EXECUTED	9:9e2908eec6e6f81efa1e76be3ee122ad	createTable tableName=webhooks; addPrimaryKey constraintName=webhooks_pk, tableName=webhooks		\N	4.33.0	\N	\N	6166902275
webhooks-2-deliveries	trainyard	db/changelog.xml	2026-12-01 23:15:05.884046	24	EXECUTED	9:e1804c72e9df4e63ec90767f0e5b7d81	createTable tableName=webhook_deliveries; addUniqueConstraint constraintName=webhook_deliveries_event_uq, tableName=webhook_deliveries; createIndex indexName=webhook_deliveries_due_ix, tableName=webhook_deliveries; createIndex indexName=webhook_de...		\N	4.33.0	\N	\N	6166902275
webhooks-3-attempts	trainyard	db/changelog.xml	2026-12-01 23:15:05.913406	25	EXECUTED	9:c08ee75f067c82a7fd11cfc71796125b	createTable tableName=webhook_attempts; addPrimaryKey constraintName=webhook_attempts_pk, tableName=webhook_attempts		\N	4.33.0	\N	\N	6166902275
queue-1-job-facts	trainyard	db/changelog.xml	2026-12-01 23:15:05.943308	26	EXECUTED	9:2644277b7c8782f777406b2564cc88c7	createTable tableName=queue_job_facts		\N	4.33.0	\N	\N	6166902275
queue-2-jobs-queued-index	trainyard	db/changelog.xml	2026-12-01 23:15:05.966563	27	EXECUTED	9:8cc7e390a645d030e9e2a5c1057e0fe6	createIndex indexName=jobs_state_team_idx, tableName=jobs		\N	4.33.0	\N	\N	6166902275
queue-3-dispatch	trainyard	db/changelog.xml	2026-12-01 23:15:05.9939	28	EXECUTED	9:d3cb4d1316dc25f52e625fb4bd1a28d0	createTable tableName=queue_dispatch; insert tableName=queue_dispatch		\N	4.33.0	\N	\N	6166902275
algorithms-1-algorithms	trainyard	db/changelog.xml	2026-12-01 23:15:06.027802	29	EXECUTED	9:4c1cd6ba4005d28a9cc09eb786df7265	createTable tableName=algorithms		\N	4.33.0	\N	\N	6166902275
algorithms-2-algorithms-pk	trainyard	db/changelog.xml	2026-12-01 23:15:06.051599	30	EXECUTED	9:dd70dcd010e58da27c63df13c622d88e	addPrimaryKey constraintName=algorithms_pk, tableName=algorithms		\N	4.33.0	\N	\N	6166902275
algorithms-3-versions	trainyard	db/changelog.xml	2026-12-01 23:15:06.08823	31	EXECUTED	9:8f37672ff0ba97c168045a4dca15817e	createTable tableName=algorithm_versions		\N	4.33.0	\N	\N	6166902275
algorithms-4-versions-pk	trainyard	db/changelog.xml	2026-12-01 23:15:06.108768	32	EXECUTED	9:b557e8a73c102d88c3924c28be4b0385	addPrimaryKey constraintName=algorithm_versions_pk, tableName=algorithm_versions		\N	4.33.0	\N	\N	6166902275
metrics-1-job-metrics	trainyard	db/changelog.xml	2026-12-01 23:15:06.132586	33	EXECUTED	9:7101ae32d1f2b4263600aab3c5018ec2	createTable tableName=job_metrics		\N	4.33.0	\N	\N	6166902275
metrics-2-job-metrics-pk	trainyard	db/changelog.xml	2026-12-01 23:15:06.152479	34	EXECUTED	9:2858ca25399eb9013ce8db29a9703885	addPrimaryKey constraintName=job_metrics_pk, tableName=job_metrics		\N	4.33.0	\N	\N	6166902275
metrics-3-metric-tokens	trainyard	db/changelog.xml	2026-12-01 23:15:06.174201	35	EXECUTED	9:831538c6afcf50befe2c0d42cf4ea58b	createTable tableName=metric_tokens		\N	4.33.0	\N	\N	6166902275
metrics-4-metric-tokens-job	trainyard	db/changelog.xml	2026-12-01 23:15:06.200047	36	EXECUTED	9:f0b2e5b2d3b611be053841ea7e17a521	createIndex indexName=metric_tokens_job_idx, tableName=metric_tokens		\N	4.33.0	\N	\N	6166902275
replicas-1-tag-v0.1.0	trainyard	db/changelog.xml	2026-12-01 23:15:06.208825	37	EXECUTED	9:c3930aa477df37a857aaaf94440b28b1	tagDatabase		v0.1.0	4.33.0	\N	\N	6166902275
\.


--
-- Data for Name: databasechangeloglock; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.databasechangeloglock (id, locked, lockgranted, lockedby) FROM stdin;
1	f	\N	\N
\.


--
-- Data for Name: idempotency_keys; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.idempotency_keys (team, subject, idem_key, spec_hash, job_id, created_at) FROM stdin;
ml	sub-mia	snapshot-done	35ba3b514aac9f96088b7db2c52654ed07440293457086f7bd1c2ffdd55c7d86	01m8sy8402qy17b5mhfdt92vrx	2026-12-01 23:15:14.191899+00
ml	sub-mia	snapshot-broken	799b46a07a37a08707ce57d46db3a0a8ac15341aea9722175d88a75a1c3549a4	01m8sy855dtfajx84yr39kwyf2	2026-12-01 23:15:15.26891+00
ml	sub-mia	snapshot-stopped	ba0e5fad4e74d2ccacfd2d38d912928ac5b736d638072c60803c78ec8a01c9ec	01m8sy85hcccb6bb1kt2dcg6m0	2026-12-01 23:15:15.686541+00
ml	sub-mia	snapshot-running	7e9b16e666a3860b239664b0bbc2a492a36ce712c6a571788ab8d7e12156b976	01m8sy85x7tby39jmv03g19069	2026-12-01 23:15:16.026815+00
ml	sub-mia	snapshot-waiting	b2acd8a93b8fe3f6770fc4214d0e7c3317c13901ba7f6d29b4ed9d382f867de9	01m8sy862w3c3193xprtbn77yn	2026-12-01 23:15:16.227652+00
ml	sub-mia	snapshot-draining	ec9452a15eae99794463908ebd1d106499cdcc5564ba4458d07bc4c108226e07	01m8sy866wpqprxabmcb381vx3	2026-12-01 23:15:16.328741+00
capped	sub-mia	snapshot-first	4f22ea31acb23d30248e2b4f813a79ba0defe8dea746e5b462d82da0a8a644ef	01m8sy8694e7j9y8vmk17cjyvt	2026-12-01 23:15:16.402259+00
capped	sub-mia	snapshot-second	8c3ceaf29be90273a03e2279887f9ee80a98f71f2eb7948fff7cd86c508d3da6	01m8sy86ccdtatb76v2kyb4zgw	2026-12-01 23:15:16.495592+00
hold	sub-mia	snapshot-pending	6f0c796d289001a2461597e225e8adb975a04301d9755230878c39b7797fd6b3	01m8sy86dnyeq19mg93n6gjjh9	2026-12-01 23:15:16.53794+00
\.


--
-- Data for Name: job_events; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.job_events (seq, job_id, at, type, message) FROM stdin;
1	01m8sy8402qy17b5mhfdt92vrx	2026-12-01 23:15:14.049096+00	STATE	PENDING: routed to k8s at $0.3840/h
2	01m8sy8402qy17b5mhfdt92vrx	2026-12-01 23:15:15.120711+00	SUBMITTED	accepted by k8s as ty-01m8sy8402qy17b5mhfdt92vrx-a1
3	01m8sy855dtfajx84yr39kwyf2	2026-12-01 23:15:15.245524+00	STATE	PENDING: routed to k8s at $0.3840/h
4	01m8sy85hcccb6bb1kt2dcg6m0	2026-12-01 23:15:15.628515+00	STATE	PENDING: routed to k8s at $0.3840/h
5	01m8sy855dtfajx84yr39kwyf2	2026-12-01 23:15:15.921488+00	SUBMITTED	accepted by k8s as ty-01m8sy855dtfajx84yr39kwyf2-a1
6	01m8sy85x7tby39jmv03g19069	2026-12-01 23:15:16.007527+00	STATE	PENDING: routed to k8s at $0.3840/h
7	01m8sy85hcccb6bb1kt2dcg6m0	2026-12-01 23:15:16.104414+00	SUBMITTED	accepted by k8s as ty-01m8sy85hcccb6bb1kt2dcg6m0-a1
8	01m8sy85x7tby39jmv03g19069	2026-12-01 23:15:16.262106+00	SUBMITTED	accepted by k8s as ty-01m8sy85x7tby39jmv03g19069-a1
9	01m8sy862w3c3193xprtbn77yn	2026-12-01 23:15:16.188178+00	STATE	PENDING: routed to k8s at $0.3840/h
10	01m8sy866wpqprxabmcb381vx3	2026-12-01 23:15:16.316642+00	STATE	PENDING: routed to k8s at $0.3840/h
11	01m8sy862w3c3193xprtbn77yn	2026-12-01 23:15:16.426263+00	SUBMITTED	accepted by k8s as ty-01m8sy862w3c3193xprtbn77yn-a1
12	01m8sy8694e7j9y8vmk17cjyvt	2026-12-01 23:15:16.388944+00	STATE	PENDING: routed to k8s at $0.3840/h
13	01m8sy86ccdtatb76v2kyb4zgw	2026-12-01 23:15:16.49223+00	STATE	QUEUED: team capped is at its quota teams.capped.maxConcurrentJobs: 1 of 1 jobs placed
14	01m8sy86dnyeq19mg93n6gjjh9	2026-12-01 23:15:16.533021+00	STATE	PENDING: routed to k8s at $0.3840/h
15	01m8sy866wpqprxabmcb381vx3	2026-12-01 23:15:16.682151+00	SUBMITTED	accepted by k8s as ty-01m8sy866wpqprxabmcb381vx3-a1
16	01m8sy8694e7j9y8vmk17cjyvt	2026-12-01 23:15:16.774418+00	SUBMITTED	accepted by k8s as ty-01m8sy8694e7j9y8vmk17cjyvt-a1
17	01m8sy8402qy17b5mhfdt92vrx	2026-12-01 23:15:17.650358+00	STATE	RUNNING
18	01m8sy85hcccb6bb1kt2dcg6m0	2026-12-01 23:15:18.095269+00	CANCEL_REQUESTED	cancel requested by mia
19	01m8sy866wpqprxabmcb381vx3	2026-12-01 23:15:18.19434+00	CANCEL_REQUESTED	cancel requested by mia
20	01m8sy8402qy17b5mhfdt92vrx	2026-12-01 23:15:18.633565+00	STATE	SUCCEEDED: PyTorchJob ty-01m8sy8402qy17b5mhfdt92vrx-a1 is successfully completed.
21	01m8sy8402qy17b5mhfdt92vrx	2026-12-01 23:15:18.63366+00	LOGS	logs of attempt 1 archived: 0 lines, 0 bytes
22	01m8sy8694e7j9y8vmk17cjyvt	2026-12-01 23:15:18.826469+00	STATE	RUNNING
23	01m8sy855dtfajx84yr39kwyf2	2026-12-01 23:15:18.895568+00	STATE	FAILED: PyTorchJob ty-01m8sy855dtfajx84yr39kwyf2-a1 is failed because 1 Master replica(s) failed.
24	01m8sy855dtfajx84yr39kwyf2	2026-12-01 23:15:18.895597+00	LOGS	logs of attempt 1 archived: 0 lines, 0 bytes
25	01m8sy85x7tby39jmv03g19069	2026-12-01 23:15:19.057441+00	STATE	RUNNING
26	01m8sy866wpqprxabmcb381vx3	2026-12-01 23:15:19.20953+00	STATE	CANCELLING
27	01m8sy866wpqprxabmcb381vx3	2026-12-01 23:15:19.209547+00	LOGS	logs of attempt 1 archived: 0 lines, 0 bytes
28	01m8sy85hcccb6bb1kt2dcg6m0	2026-12-01 23:15:19.294731+00	STATE	CANCELLING
29	01m8sy85hcccb6bb1kt2dcg6m0	2026-12-01 23:15:19.294749+00	LOGS	logs of attempt 1 archived: 0 lines, 0 bytes
30	01m8sy85hcccb6bb1kt2dcg6m0	2026-12-01 23:15:19.443569+00	STATE	CANCELLED
\.


--
-- Data for Name: job_metrics; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.job_metrics (job_id, name, point_key, step, epoch, metric_value, at, source) FROM stdin;
\.


--
-- Data for Name: jobs; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.jobs (id, team, owner_subject, owner_username, name, live_name, state, attempt, spec_json, spec_hash, decision_json, offer_index, backend_id, external_ref_json, hourly_usd, estimated_usd, reason, restarts, cancel_requested, created_at, updated_at, submitted_at, started_at, ended_at, lease_owner, lease_until, version) FROM stdin;
01m8sy866wpqprxabmcb381vx3	ml	sub-mia	mia	draining	draining	CANCELLING	1	{"apiVersion":"trainyard.io/v1","kind":"TrainingJob","metadata":{"name":"draining","team":"ml"},"spec":{"framework":"pytorch","image":"registry.example.com/train:1","command":["python","train.py"],"resources":{"cpus":1.0,"memory":"1Gi"},"replicas":{"master":1}}}	ec9452a15eae99794463908ebd1d106499cdcc5564ba4458d07bc4c108226e07	{"policy":"cheapest","chosen":"k8s","candidates":[{"backendId":"k8s","kind":"kubernetes","region":"us-east-1","spot":false,"hourlyUsd":0.3840,"estimatedUsd":0.3840,"estimated":false,"chosen":true,"notes":["master on pool cpu","pool cpu (m5.2xlarge): 8 vCPUs, 32 GiB; allocatable 7.71 vCPUs, 30.22 GiB (EKS AMI kube-reserved for 110 pods + eviction + daemon sets)","price: 1 × m5.2xlarge @ $0.384/h (skypilot-catalog catalogs/v7/aws/vms.csv@001367d2)"],"placement":{"backendId":"k8s","provider":"aws","service":"ec2","region":"us-east-1","spot":false,"lines":[{"roles":["master"],"instanceType":"m5.2xlarge","count":1,"gpuType":null,"gpus":0,"pool":"cpu"}],"operatorUsdPerHour":null,"clusterFeeUsdPerHour":null,"freeCapacity":null,"notes":["master on pool cpu","pool cpu (m5.2xlarge): 8 vCPUs, 32 GiB; allocatable 7.71 vCPUs, 30.22 GiB (EKS AMI kube-reserved for 110 pods + eviction + daemon sets)"]}}],"pricesAsOf":"2026-11-30","rankedBy":"hourlyUsd","choice":"cheapest: the lowest hourlyUsd, $0.384"}	0	k8s	{"backendId":"k8s","name":"ty-01m8sy866wpqprxabmcb381vx3-a1","attributes":{"kind":"PyTorchJob","namespace":"ml-jobs"}}	0.384000	0.384000	\N	0	t	2026-12-01 23:15:16.316642+00	2026-12-01 23:15:19.209515+00	2026-12-01 23:15:16.682019+00	\N	\N	14038@vm	2026-12-01 23:15:20.24704+00	10
01m8sy86ccdtatb76v2kyb4zgw	capped	sub-mia	mia	second	second	QUEUED	1	{"apiVersion":"trainyard.io/v1","kind":"TrainingJob","metadata":{"name":"second","team":"capped"},"spec":{"framework":"pytorch","image":"registry.example.com/train:1","command":["python","train.py"],"resources":{"cpus":1.0,"memory":"1Gi"},"replicas":{"master":1}}}	8c3ceaf29be90273a03e2279887f9ee80a98f71f2eb7948fff7cd86c508d3da6	{"policy":"cheapest","chosen":"k8s","candidates":[{"backendId":"k8s","kind":"kubernetes","region":"us-east-1","spot":false,"hourlyUsd":0.3840,"estimatedUsd":0.3840,"estimated":false,"chosen":true,"notes":["master on pool cpu","pool cpu (m5.2xlarge): 8 vCPUs, 32 GiB; allocatable 7.71 vCPUs, 30.22 GiB (EKS AMI kube-reserved for 110 pods + eviction + daemon sets)","price: 1 × m5.2xlarge @ $0.384/h (skypilot-catalog catalogs/v7/aws/vms.csv@001367d2)"],"placement":{"backendId":"k8s","provider":"aws","service":"ec2","region":"us-east-1","spot":false,"lines":[{"roles":["master"],"instanceType":"m5.2xlarge","count":1,"gpuType":null,"gpus":0,"pool":"cpu"}],"operatorUsdPerHour":null,"clusterFeeUsdPerHour":null,"freeCapacity":null,"notes":["master on pool cpu","pool cpu (m5.2xlarge): 8 vCPUs, 32 GiB; allocatable 7.71 vCPUs, 30.22 GiB (EKS AMI kube-reserved for 110 pods + eviction + daemon sets)"]}}],"pricesAsOf":"2026-11-30","rankedBy":"hourlyUsd","choice":"cheapest: the lowest hourlyUsd, $0.384"}	0	\N	\N	\N	\N	team capped is at its quota teams.capped.maxConcurrentJobs: 1 of 1 jobs placed	0	f	2026-12-01 23:15:16.49223+00	2026-12-01 23:15:16.49223+00	\N	\N	\N	\N	2026-12-01 23:15:19.973973+00	6
01m8sy8694e7j9y8vmk17cjyvt	capped	sub-mia	mia	first	first	RUNNING	1	{"apiVersion":"trainyard.io/v1","kind":"TrainingJob","metadata":{"name":"first","team":"capped"},"spec":{"framework":"pytorch","image":"registry.example.com/train:1","command":["python","train.py"],"resources":{"cpus":1.0,"memory":"1Gi"},"replicas":{"master":1}}}	4f22ea31acb23d30248e2b4f813a79ba0defe8dea746e5b462d82da0a8a644ef	{"policy":"cheapest","chosen":"k8s","candidates":[{"backendId":"k8s","kind":"kubernetes","region":"us-east-1","spot":false,"hourlyUsd":0.3840,"estimatedUsd":0.3840,"estimated":false,"chosen":true,"notes":["master on pool cpu","pool cpu (m5.2xlarge): 8 vCPUs, 32 GiB; allocatable 7.71 vCPUs, 30.22 GiB (EKS AMI kube-reserved for 110 pods + eviction + daemon sets)","price: 1 × m5.2xlarge @ $0.384/h (skypilot-catalog catalogs/v7/aws/vms.csv@001367d2)"],"placement":{"backendId":"k8s","provider":"aws","service":"ec2","region":"us-east-1","spot":false,"lines":[{"roles":["master"],"instanceType":"m5.2xlarge","count":1,"gpuType":null,"gpus":0,"pool":"cpu"}],"operatorUsdPerHour":null,"clusterFeeUsdPerHour":null,"freeCapacity":null,"notes":["master on pool cpu","pool cpu (m5.2xlarge): 8 vCPUs, 32 GiB; allocatable 7.71 vCPUs, 30.22 GiB (EKS AMI kube-reserved for 110 pods + eviction + daemon sets)"]}}],"pricesAsOf":"2026-11-30","rankedBy":"hourlyUsd","choice":"cheapest: the lowest hourlyUsd, $0.384"}	0	k8s	{"backendId":"k8s","name":"ty-01m8sy8694e7j9y8vmk17cjyvt-a1","attributes":{"kind":"PyTorchJob","namespace":"capped-jobs"}}	0.384000	0.384000	\N	0	f	2026-12-01 23:15:16.388944+00	2026-12-01 23:15:18.826451+00	2026-12-01 23:15:16.774399+00	2026-12-01 23:15:18+00	\N	14038@vm	2026-12-01 23:15:20.24704+00	9
01m8sy855dtfajx84yr39kwyf2	ml	sub-mia	mia	broken	\N	FAILED	1	{"apiVersion":"trainyard.io/v1","kind":"TrainingJob","metadata":{"name":"broken","team":"ml"},"spec":{"framework":"pytorch","image":"registry.example.com/train:1","command":["python","train.py"],"resources":{"cpus":1.0,"memory":"1Gi"},"replicas":{"master":1}}}	799b46a07a37a08707ce57d46db3a0a8ac15341aea9722175d88a75a1c3549a4	{"policy":"cheapest","chosen":"k8s","candidates":[{"backendId":"k8s","kind":"kubernetes","region":"us-east-1","spot":false,"hourlyUsd":0.3840,"estimatedUsd":0.3840,"estimated":false,"chosen":true,"notes":["master on pool cpu","pool cpu (m5.2xlarge): 8 vCPUs, 32 GiB; allocatable 7.71 vCPUs, 30.22 GiB (EKS AMI kube-reserved for 110 pods + eviction + daemon sets)","price: 1 × m5.2xlarge @ $0.384/h (skypilot-catalog catalogs/v7/aws/vms.csv@001367d2)"],"placement":{"backendId":"k8s","provider":"aws","service":"ec2","region":"us-east-1","spot":false,"lines":[{"roles":["master"],"instanceType":"m5.2xlarge","count":1,"gpuType":null,"gpus":0,"pool":"cpu"}],"operatorUsdPerHour":null,"clusterFeeUsdPerHour":null,"freeCapacity":null,"notes":["master on pool cpu","pool cpu (m5.2xlarge): 8 vCPUs, 32 GiB; allocatable 7.71 vCPUs, 30.22 GiB (EKS AMI kube-reserved for 110 pods + eviction + daemon sets)"]}}],"pricesAsOf":"2026-11-30","rankedBy":"hourlyUsd","choice":"cheapest: the lowest hourlyUsd, $0.384"}	0	k8s	{"backendId":"k8s","name":"ty-01m8sy855dtfajx84yr39kwyf2-a1","attributes":{"kind":"PyTorchJob","namespace":"ml-jobs"}}	0.384000	0.384000	PyTorchJob ty-01m8sy855dtfajx84yr39kwyf2-a1 is failed because 1 Master replica(s) failed.	1	f	2026-12-01 23:15:15.245524+00	2026-12-01 23:15:18.838312+00	2026-12-01 23:15:15.921429+00	\N	2026-12-01 23:15:17+00	14038@vm	2026-12-01 23:15:20.24704+00	11
01m8sy86dnyeq19mg93n6gjjh9	hold	sub-mia	mia	pending	pending	PENDING	1	{"apiVersion":"trainyard.io/v1","kind":"TrainingJob","metadata":{"name":"pending","team":"hold"},"spec":{"framework":"pytorch","image":"registry.example.com/train:1","command":["python","train.py"],"resources":{"cpus":1.0,"memory":"1Gi"},"replicas":{"master":1}}}	6f0c796d289001a2461597e225e8adb975a04301d9755230878c39b7797fd6b3	{"policy":"cheapest","chosen":"k8s","candidates":[{"backendId":"k8s","kind":"kubernetes","region":"us-east-1","spot":false,"hourlyUsd":0.3840,"estimatedUsd":0.3840,"estimated":false,"chosen":true,"notes":["master on pool cpu","pool cpu (m5.2xlarge): 8 vCPUs, 32 GiB; allocatable 7.71 vCPUs, 30.22 GiB (EKS AMI kube-reserved for 110 pods + eviction + daemon sets)","price: 1 × m5.2xlarge @ $0.384/h (skypilot-catalog catalogs/v7/aws/vms.csv@001367d2)"],"placement":{"backendId":"k8s","provider":"aws","service":"ec2","region":"us-east-1","spot":false,"lines":[{"roles":["master"],"instanceType":"m5.2xlarge","count":1,"gpuType":null,"gpus":0,"pool":"cpu"}],"operatorUsdPerHour":null,"clusterFeeUsdPerHour":null,"freeCapacity":null,"notes":["master on pool cpu","pool cpu (m5.2xlarge): 8 vCPUs, 32 GiB; allocatable 7.71 vCPUs, 30.22 GiB (EKS AMI kube-reserved for 110 pods + eviction + daemon sets)"]}}],"pricesAsOf":"2026-11-30","rankedBy":"hourlyUsd","choice":"cheapest: the lowest hourlyUsd, $0.384"}	0	k8s	\N	0.384000	0.384000	\N	0	f	2026-12-01 23:15:16.533021+00	2026-12-01 23:15:16.533021+00	\N	\N	\N	14038@vm	2026-12-01 23:15:20.24704+00	6
01m8sy8402qy17b5mhfdt92vrx	ml	sub-mia	mia	done	\N	SUCCEEDED	1	{"apiVersion":"trainyard.io/v1","kind":"TrainingJob","metadata":{"name":"done","team":"ml"},"spec":{"framework":"pytorch","image":"registry.example.com/train:1","command":["python","train.py"],"resources":{"cpus":1.0,"memory":"1Gi"},"replicas":{"master":1}}}	35ba3b514aac9f96088b7db2c52654ed07440293457086f7bd1c2ffdd55c7d86	{"policy":"cheapest","chosen":"k8s","candidates":[{"backendId":"k8s","kind":"kubernetes","region":"us-east-1","spot":false,"hourlyUsd":0.3840,"estimatedUsd":0.3840,"estimated":false,"chosen":true,"notes":["master on pool cpu","pool cpu (m5.2xlarge): 8 vCPUs, 32 GiB; allocatable 7.71 vCPUs, 30.22 GiB (EKS AMI kube-reserved for 110 pods + eviction + daemon sets)","price: 1 × m5.2xlarge @ $0.384/h (skypilot-catalog catalogs/v7/aws/vms.csv@001367d2)"],"placement":{"backendId":"k8s","provider":"aws","service":"ec2","region":"us-east-1","spot":false,"lines":[{"roles":["master"],"instanceType":"m5.2xlarge","count":1,"gpuType":null,"gpus":0,"pool":"cpu"}],"operatorUsdPerHour":null,"clusterFeeUsdPerHour":null,"freeCapacity":null,"notes":["master on pool cpu","pool cpu (m5.2xlarge): 8 vCPUs, 32 GiB; allocatable 7.71 vCPUs, 30.22 GiB (EKS AMI kube-reserved for 110 pods + eviction + daemon sets)"]}}],"pricesAsOf":"2026-11-30","rankedBy":"hourlyUsd","choice":"cheapest: the lowest hourlyUsd, $0.384"}	0	k8s	{"backendId":"k8s","name":"ty-01m8sy8402qy17b5mhfdt92vrx-a1","attributes":{"kind":"PyTorchJob","namespace":"ml-jobs"}}	0.384000	0.384000	PyTorchJob ty-01m8sy8402qy17b5mhfdt92vrx-a1 is successfully completed.	0	f	2026-12-01 23:15:14.049096+00	2026-12-01 23:15:17.749791+00	2026-12-01 23:15:15.120453+00	2026-12-01 23:15:17+00	2026-12-01 23:15:17+00	14038@vm	2026-12-01 23:15:20.24704+00	13
01m8sy85hcccb6bb1kt2dcg6m0	ml	sub-mia	mia	stopped	\N	CANCELLED	1	{"apiVersion":"trainyard.io/v1","kind":"TrainingJob","metadata":{"name":"stopped","team":"ml"},"spec":{"framework":"pytorch","image":"registry.example.com/train:1","command":["python","train.py"],"resources":{"cpus":1.0,"memory":"1Gi"},"replicas":{"master":1}}}	ba0e5fad4e74d2ccacfd2d38d912928ac5b736d638072c60803c78ec8a01c9ec	{"policy":"cheapest","chosen":"k8s","candidates":[{"backendId":"k8s","kind":"kubernetes","region":"us-east-1","spot":false,"hourlyUsd":0.3840,"estimatedUsd":0.3840,"estimated":false,"chosen":true,"notes":["master on pool cpu","pool cpu (m5.2xlarge): 8 vCPUs, 32 GiB; allocatable 7.71 vCPUs, 30.22 GiB (EKS AMI kube-reserved for 110 pods + eviction + daemon sets)","price: 1 × m5.2xlarge @ $0.384/h (skypilot-catalog catalogs/v7/aws/vms.csv@001367d2)"],"placement":{"backendId":"k8s","provider":"aws","service":"ec2","region":"us-east-1","spot":false,"lines":[{"roles":["master"],"instanceType":"m5.2xlarge","count":1,"gpuType":null,"gpus":0,"pool":"cpu"}],"operatorUsdPerHour":null,"clusterFeeUsdPerHour":null,"freeCapacity":null,"notes":["master on pool cpu","pool cpu (m5.2xlarge): 8 vCPUs, 32 GiB; allocatable 7.71 vCPUs, 30.22 GiB (EKS AMI kube-reserved for 110 pods + eviction + daemon sets)"]}}],"pricesAsOf":"2026-11-30","rankedBy":"hourlyUsd","choice":"cheapest: the lowest hourlyUsd, $0.384"}	0	k8s	{"backendId":"k8s","name":"ty-01m8sy85hcccb6bb1kt2dcg6m0-a1","attributes":{"kind":"PyTorchJob","namespace":"ml-jobs"}}	0.384000	0.384000	\N	0	t	2026-12-01 23:15:15.628515+00	2026-12-01 23:15:19.443553+00	2026-12-01 23:15:16.104388+00	\N	2026-12-01 23:15:19.443553+00	14038@vm	2026-12-01 23:15:20.24704+00	13
01m8sy862w3c3193xprtbn77yn	ml	sub-mia	mia	waiting	waiting	SUBMITTED	1	{"apiVersion":"trainyard.io/v1","kind":"TrainingJob","metadata":{"name":"waiting","team":"ml"},"spec":{"framework":"pytorch","image":"registry.example.com/train:1","command":["python","train.py"],"resources":{"cpus":1.0,"memory":"1Gi"},"replicas":{"master":1}}}	b2acd8a93b8fe3f6770fc4214d0e7c3317c13901ba7f6d29b4ed9d382f867de9	{"policy":"cheapest","chosen":"k8s","candidates":[{"backendId":"k8s","kind":"kubernetes","region":"us-east-1","spot":false,"hourlyUsd":0.3840,"estimatedUsd":0.3840,"estimated":false,"chosen":true,"notes":["master on pool cpu","pool cpu (m5.2xlarge): 8 vCPUs, 32 GiB; allocatable 7.71 vCPUs, 30.22 GiB (EKS AMI kube-reserved for 110 pods + eviction + daemon sets)","price: 1 × m5.2xlarge @ $0.384/h (skypilot-catalog catalogs/v7/aws/vms.csv@001367d2)"],"placement":{"backendId":"k8s","provider":"aws","service":"ec2","region":"us-east-1","spot":false,"lines":[{"roles":["master"],"instanceType":"m5.2xlarge","count":1,"gpuType":null,"gpus":0,"pool":"cpu"}],"operatorUsdPerHour":null,"clusterFeeUsdPerHour":null,"freeCapacity":null,"notes":["master on pool cpu","pool cpu (m5.2xlarge): 8 vCPUs, 32 GiB; allocatable 7.71 vCPUs, 30.22 GiB (EKS AMI kube-reserved for 110 pods + eviction + daemon sets)"]}}],"pricesAsOf":"2026-11-30","rankedBy":"hourlyUsd","choice":"cheapest: the lowest hourlyUsd, $0.384"}	0	k8s	{"backendId":"k8s","name":"ty-01m8sy862w3c3193xprtbn77yn-a1","attributes":{"kind":"PyTorchJob","namespace":"ml-jobs"}}	0.384000	0.384000	\N	0	f	2026-12-01 23:15:16.188178+00	2026-12-01 23:15:16.426057+00	2026-12-01 23:15:16.42624+00	\N	\N	14038@vm	2026-12-01 23:15:20.24704+00	8
01m8sy85x7tby39jmv03g19069	ml	sub-mia	mia	running	running	RUNNING	1	{"apiVersion":"trainyard.io/v1","kind":"TrainingJob","metadata":{"name":"running","team":"ml"},"spec":{"framework":"pytorch","image":"registry.example.com/train:1","command":["python","train.py"],"resources":{"cpus":1.0,"memory":"1Gi"},"replicas":{"master":1}}}	7e9b16e666a3860b239664b0bbc2a492a36ce712c6a571788ab8d7e12156b976	{"policy":"cheapest","chosen":"k8s","candidates":[{"backendId":"k8s","kind":"kubernetes","region":"us-east-1","spot":false,"hourlyUsd":0.3840,"estimatedUsd":0.3840,"estimated":false,"chosen":true,"notes":["master on pool cpu","pool cpu (m5.2xlarge): 8 vCPUs, 32 GiB; allocatable 7.71 vCPUs, 30.22 GiB (EKS AMI kube-reserved for 110 pods + eviction + daemon sets)","price: 1 × m5.2xlarge @ $0.384/h (skypilot-catalog catalogs/v7/aws/vms.csv@001367d2)"],"placement":{"backendId":"k8s","provider":"aws","service":"ec2","region":"us-east-1","spot":false,"lines":[{"roles":["master"],"instanceType":"m5.2xlarge","count":1,"gpuType":null,"gpus":0,"pool":"cpu"}],"operatorUsdPerHour":null,"clusterFeeUsdPerHour":null,"freeCapacity":null,"notes":["master on pool cpu","pool cpu (m5.2xlarge): 8 vCPUs, 32 GiB; allocatable 7.71 vCPUs, 30.22 GiB (EKS AMI kube-reserved for 110 pods + eviction + daemon sets)"]}}],"pricesAsOf":"2026-11-30","rankedBy":"hourlyUsd","choice":"cheapest: the lowest hourlyUsd, $0.384"}	0	k8s	{"backendId":"k8s","name":"ty-01m8sy85x7tby39jmv03g19069-a1","attributes":{"kind":"PyTorchJob","namespace":"ml-jobs"}}	0.384000	0.384000	\N	0	f	2026-12-01 23:15:16.007527+00	2026-12-01 23:15:19.057414+00	2026-12-01 23:15:16.262097+00	2026-12-01 23:15:17+00	\N	14038@vm	2026-12-01 23:15:20.24704+00	11
\.


--
-- Data for Name: metric_tokens; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.metric_tokens (token_hash, job_id, attempt, created_at) FROM stdin;
\.


--
-- Data for Name: queue_dispatch; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.queue_dispatch (id, lease_owner, lease_until, wanted_at, passed_at, passed_month) FROM stdin;
1	\N	\N	2026-12-01 23:15:19.491057+00	2026-12-01 23:15:19.95585+00	2026-12
\.


--
-- Data for Name: queue_job_facts; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.queue_job_facts (job_id, team, priority, gpus) FROM stdin;
01m8sy8402qy17b5mhfdt92vrx	ml	500	0
01m8sy855dtfajx84yr39kwyf2	ml	500	0
01m8sy85hcccb6bb1kt2dcg6m0	ml	500	0
01m8sy85x7tby39jmv03g19069	ml	500	0
01m8sy862w3c3193xprtbn77yn	ml	500	0
01m8sy866wpqprxabmcb381vx3	ml	500	0
01m8sy8694e7j9y8vmk17cjyvt	capped	500	0
01m8sy86ccdtatb76v2kyb4zgw	capped	500	0
01m8sy86dnyeq19mg93n6gjjh9	hold	500	0
\.


--
-- Data for Name: teams; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.teams (name, created_at) FROM stdin;
ml	2026-12-01 23:15:14.154722+00
capped	2026-12-01 23:15:16.390383+00
hold	2026-12-01 23:15:16.534698+00
\.


--
-- Data for Name: webhook_attempts; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.webhook_attempts (delivery_id, attempt, attempted_at, status_code, error, duration_ms, replica) FROM stdin;
\.


--
-- Data for Name: webhook_deliveries; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.webhook_deliveries (id, event_id, event_type, team, webhook_id, job_id, body, status, attempts, created_at, next_attempt_at, last_attempt_at, last_status_code, last_error, lease_owner, lease_until, version) FROM stdin;
\.


--
-- Data for Name: webhooks; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.webhooks (team, id, url, event_types, enabled, secret_sealed, created_at, updated_at, updated_by) FROM stdin;
\.


--
-- Name: job_events_seq_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.job_events_seq_seq', 30, true);


--
-- Name: algorithm_versions algorithm_versions_pk; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.algorithm_versions
    ADD CONSTRAINT algorithm_versions_pk PRIMARY KEY (team, name, version);


--
-- Name: algorithms algorithms_pk; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.algorithms
    ADD CONSTRAINT algorithms_pk PRIMARY KEY (team, name);


--
-- Name: audit_digests audit_digests_pk; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.audit_digests
    ADD CONSTRAINT audit_digests_pk PRIMARY KEY (from_seq);


--
-- Name: audit_digests audit_digests_to_seq_uq; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.audit_digests
    ADD CONSTRAINT audit_digests_to_seq_uq UNIQUE (to_seq);


--
-- Name: audit_events audit_events_pk; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.audit_events
    ADD CONSTRAINT audit_events_pk PRIMARY KEY (seq);


--
-- Name: audit_head audit_head_pk; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.audit_head
    ADD CONSTRAINT audit_head_pk PRIMARY KEY (id);


--
-- Name: audit_leases audit_leases_pk; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.audit_leases
    ADD CONSTRAINT audit_leases_pk PRIMARY KEY (name);


--
-- Name: databasechangeloglock databasechangeloglock_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.databasechangeloglock
    ADD CONSTRAINT databasechangeloglock_pkey PRIMARY KEY (id);


--
-- Name: idempotency_keys idempotency_keys_pk; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.idempotency_keys
    ADD CONSTRAINT idempotency_keys_pk PRIMARY KEY (team, subject, idem_key);


--
-- Name: job_events job_events_pk; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.job_events
    ADD CONSTRAINT job_events_pk PRIMARY KEY (seq);


--
-- Name: job_metrics job_metrics_pk; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.job_metrics
    ADD CONSTRAINT job_metrics_pk PRIMARY KEY (job_id, name, point_key);


--
-- Name: jobs jobs_pk; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.jobs
    ADD CONSTRAINT jobs_pk PRIMARY KEY (id);


--
-- Name: jobs jobs_team_live_name_uq; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.jobs
    ADD CONSTRAINT jobs_team_live_name_uq UNIQUE (team, live_name);


--
-- Name: metric_tokens metric_tokens_pk; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.metric_tokens
    ADD CONSTRAINT metric_tokens_pk PRIMARY KEY (token_hash);


--
-- Name: queue_dispatch queue_dispatch_pk; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.queue_dispatch
    ADD CONSTRAINT queue_dispatch_pk PRIMARY KEY (id);


--
-- Name: queue_job_facts queue_job_facts_pk; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.queue_job_facts
    ADD CONSTRAINT queue_job_facts_pk PRIMARY KEY (job_id);


--
-- Name: teams teams_pk; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.teams
    ADD CONSTRAINT teams_pk PRIMARY KEY (name);


--
-- Name: webhook_attempts webhook_attempts_pk; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.webhook_attempts
    ADD CONSTRAINT webhook_attempts_pk PRIMARY KEY (delivery_id, attempt);


--
-- Name: webhook_deliveries webhook_deliveries_event_uq; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.webhook_deliveries
    ADD CONSTRAINT webhook_deliveries_event_uq UNIQUE (event_id, webhook_id);


--
-- Name: webhook_deliveries webhook_deliveries_pk; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.webhook_deliveries
    ADD CONSTRAINT webhook_deliveries_pk PRIMARY KEY (id);


--
-- Name: webhooks webhooks_pk; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.webhooks
    ADD CONSTRAINT webhooks_pk PRIMARY KEY (team, id);


--
-- Name: audit_events_time_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX audit_events_time_idx ON public.audit_events USING btree (event_time);


--
-- Name: idempotency_keys_created_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX idempotency_keys_created_idx ON public.idempotency_keys USING btree (created_at);


--
-- Name: job_events_job_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX job_events_job_idx ON public.job_events USING btree (job_id, seq);


--
-- Name: jobs_claim_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX jobs_claim_idx ON public.jobs USING btree (state, lease_until);


--
-- Name: jobs_created_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX jobs_created_idx ON public.jobs USING btree (created_at);


--
-- Name: jobs_state_team_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX jobs_state_team_idx ON public.jobs USING btree (state, team);


--
-- Name: jobs_team_created_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX jobs_team_created_idx ON public.jobs USING btree (team, created_at);


--
-- Name: metric_tokens_job_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX metric_tokens_job_idx ON public.metric_tokens USING btree (job_id);


--
-- Name: webhook_deliveries_due_ix; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX webhook_deliveries_due_ix ON public.webhook_deliveries USING btree (status, next_attempt_at);


--
-- Name: webhook_deliveries_team_ix; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX webhook_deliveries_team_ix ON public.webhook_deliveries USING btree (team, created_at);


--
-- Name: audit_digests audit_digests_append_only; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER audit_digests_append_only BEFORE DELETE OR UPDATE ON public.audit_digests FOR EACH ROW EXECUTE FUNCTION public.audit_refuse_change();


--
-- Name: audit_digests audit_digests_no_truncate; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER audit_digests_no_truncate BEFORE TRUNCATE ON public.audit_digests FOR EACH STATEMENT EXECUTE FUNCTION public.audit_refuse_change();


--
-- Name: audit_events audit_events_append_only; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER audit_events_append_only BEFORE DELETE OR UPDATE ON public.audit_events FOR EACH ROW EXECUTE FUNCTION public.audit_refuse_change();


--
-- Name: audit_events audit_events_no_truncate; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON public.audit_events FOR EACH STATEMENT EXECUTE FUNCTION public.audit_refuse_change();


--
-- Name: idempotency_keys idempotency_keys_job_fk; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.idempotency_keys
    ADD CONSTRAINT idempotency_keys_job_fk FOREIGN KEY (job_id) REFERENCES public.jobs(id);


--
-- Name: job_events job_events_job_fk; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.job_events
    ADD CONSTRAINT job_events_job_fk FOREIGN KEY (job_id) REFERENCES public.jobs(id);


--
-- PostgreSQL database dump complete
--

\unrestrict AQKrbhp7ZThMyBlClh3pQ3B9BaUHIJT4OcLSP8DlcfZc8Yf6464TQ9TZGVoJGiQ

