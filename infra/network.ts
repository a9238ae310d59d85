import type { StageSettings } from '../stacks/types';

/** AWS services the functions reach through interface endpoints instead of the NAT. */
export const ENDPOINT_SERVICES = ['kms', 'secretsmanager', 'sqs'] as const;

/**
 * The VPC: public subnets with the NAT, private subnets for RDS, RDS Proxy and every function.
 * Functions reach KMS, Secrets Manager and SQS through interface endpoints (when the stage
 * turns them on), and everything else on the internet (JWKS, Stripe, OpenAI, users' databases)
 * through the NAT.
 */
export function createNetwork(settings: StageSettings) {
  const vpc = new sst.aws.Vpc('Network', {
    az: settings.network.azs,
    nat: settings.network.nat,
  });

  if (settings.network.vpcEndpoints) {
    const region = aws.getRegionOutput().region;
    const endpointSg = new aws.ec2.SecurityGroup('EndpointSecurityGroup', {
      vpcId: vpc.id,
      description: 'HTTPS from the VPC to the interface endpoints',
      ingress: [{ protocol: 'tcp', fromPort: 443, toPort: 443, cidrBlocks: [vpc.nodes.vpc.cidrBlock] }],
      egress: [{ protocol: '-1', fromPort: 0, toPort: 0, cidrBlocks: ['0.0.0.0/0'] }],
    });
    for (const service of ENDPOINT_SERVICES) {
      new aws.ec2.VpcEndpoint(`Endpoint${service[0]!.toUpperCase()}${service.slice(1)}`, {
        vpcId: vpc.id,
        serviceName: $interpolate`com.amazonaws.${region}.${service}`,
        vpcEndpointType: 'Interface',
        privateDnsEnabled: true,
        subnetIds: vpc.privateSubnets,
        securityGroupIds: [endpointSg.id],
      });
    }
  }
  return vpc;
}
