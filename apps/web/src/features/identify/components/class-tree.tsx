import { EyeInvisibleOutlined, MoreOutlined, StarFilled } from '@ant-design/icons';
import type { TreeNode } from '@ipp/contracts';
import { Button, Dropdown, Empty, Flex, Spin, Tree, Typography, type MenuProps, type TreeDataNode } from 'antd';
import { useTranslation } from 'react-i18next';
import { useFormatCount } from '@/hooks/use-format-count';
import './class-tree.css';

interface Item extends TreeDataNode {
  node: TreeNode;
  children: Item[];
}

const toItems = (nodes: readonly TreeNode[]): Item[] =>
  nodes.map((node) => ({ key: node.code, title: node.title, node, children: toItems(node.children) }));

const ATTENTION_COLOR = '#d46b08';

interface ClassTreeProps {
  nodes: readonly TreeNode[];
  loading: boolean;
  selectedCode?: string;
  onSelect: (code: string | undefined) => void;
  menuFor: (node: TreeNode) => MenuProps;
}

/** The class (folder) tree of a category with counts (spec §9 format); attention classes stand out. */
export function ClassTree({ nodes, loading, selectedCode, onSelect, menuFor }: ClassTreeProps) {
  const { t } = useTranslation();
  const formatCount = useFormatCount();
  if (loading) return <Spin />;
  if (nodes.length === 0) {
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('identify.treeEmpty')} data-testid="identify-tree-empty" />;
  }
  return (
    <Tree<Item>
      className="identify-class-tree"
      blockNode
      defaultExpandAll
      treeData={toItems(nodes)}
      selectedKeys={selectedCode ? [selectedCode] : []}
      // Clicking the selected node again goes back to the whole category.
      onSelect={(keys) => onSelect(keys[0] === undefined ? undefined : String(keys[0]))}
      aria-label={t('identify.tree')}
      data-testid="identify-tree"
      titleRender={({ node }) => {
        const menu = menuFor(node);
        const hasMenu = (menu.items?.length ?? 0) > 0;
        return (
          <Dropdown menu={menu} trigger={['contextMenu']} disabled={!hasMenu}>
            <Flex
              justify="space-between"
              align="center"
              gap={4}
              // The name gives way (ellipsis, whole name in its tooltip); the count and the menu always show.
              style={{ minWidth: 0, width: '100%' }}
              data-testid={`identify-node-${node.code}`}
              data-attention={node.attention}
            >
              <Typography.Text
                ellipsis
                strong={node.attention}
                style={{ flex: '1 1 auto', minWidth: 0, ...(node.attention ? { color: ATTENTION_COLOR } : {}) }}
                title={node.title}
              >
                {node.attention && <StarFilled aria-label={t('identify.detail.attention')} style={{ marginRight: 4 }} />}
                {/* Hidden from the team's users (issue 20): only administrators get such a node. */}
                {node.hidden && (
                  <EyeInvisibleOutlined
                    aria-label={t('identify.classVisibility.hiddenTag')}
                    style={{ marginRight: 4 }}
                    data-testid={`identify-node-hidden-${node.code}`}
                  />
                )}
                {node.title}
              </Typography.Text>
              <Flex align="center" gap={2} style={{ flex: 'none' }}>
                <Typography.Text type="secondary" data-testid={`identify-node-count-${node.code}`}>
                  {formatCount(node.count)}
                </Typography.Text>
                {hasMenu && (
                  <Dropdown menu={menu} trigger={['click']}>
                    <Button
                      type="text"
                      size="small"
                      icon={<MoreOutlined />}
                      aria-label={t('identify.nodeMenu.label', { name: node.title })}
                      onClick={(event) => event.stopPropagation()}
                      data-testid={`identify-node-menu-${node.code}`}
                    />
                  </Dropdown>
                )}
              </Flex>
            </Flex>
          </Dropdown>
        );
      }}
    />
  );
}
